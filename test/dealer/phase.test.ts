/**
 * One phase vocabulary: the contract's (core/game-phases.ts), decoded from its ABI value in one place
 * (`phaseName`), and the dealer's `GamePhase` derived from it in one place (`dealerPhase`), for the real chain
 * and the fake alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  GAME_PHASES,
  GAME_REASONS,
  isLivePhase,
  isPlayPhase,
  LIVE_PHASES,
  PLAY_PHASES,
  phaseName,
  reasonName,
} from '../../core/game-phases.ts';
import { dealerPhase } from '../../dealer/chain/phase.ts';

describe('game phases', () => {
  it('an ABI value names its phase or reason; a value past the enum is an error, not a silent None', () => {
    assert.equal(phaseName(4n), 'Play');
    assert.equal(phaseName(12), 'OpenRoot');
    assert.equal(reasonName(7n), 'UnansweredDispute');
    assert.equal(reasonName(11n), 'UnansweredAuditChallenge');
    assert.throws(() => phaseName(BigInt(GAME_PHASES.length)), /unknown game phase 13/);
    assert.throws(() => phaseName(-1), /unknown game phase -1/);
    assert.throws(() => reasonName(GAME_REASONS.length), /unknown reason 12/);
  });

  it('the live phases are the ceremony and play; play needs the root (or an open map); the rest is over', () => {
    const over = GAME_PHASES.filter((p) => !isLivePhase(p));
    assert.deepEqual(over, ['None', 'Secrets', 'Audit', 'Settled', 'Cancelled']);
    assert.deepEqual(
      LIVE_PHASES.filter((p) => !isPlayPhase(p)),
      ['Commit', 'Reveal', 'Deal'],
    );
    assert.ok(PLAY_PHASES.every(isLivePhase));
  });

  it('the dealer reads every contract phase, the open map and the published secrets in one function', () => {
    const closed = { openMap: false, secretsPublished: false };
    const read = (phase: (typeof GAME_PHASES)[number], o = closed) => dealerPhase(1n, { phase, ...o });
    assert.deepEqual(
      GAME_PHASES.filter((p) => p !== 'None').map((p) => [p, read(p)]),
      [
        ['Commit', 'commit'],
        ['Reveal', 'sealing'],
        ['Deal', 'dealing'],
        ['Play', 'playing'],
        ['Secrets', 'ended'],
        ['Audit', 'ended'],
        ['Settled', 'cancelled'], // slashed for missing secrets
        ['Cancelled', 'cancelled'],
        ['ForceOpen', 'forced-open'],
        ['Combat', 'playing'],
        ['Dispute', 'dispute'],
        ['OpenRoot', 'forced-open'],
      ],
    );
    assert.equal(
      read('Settled', { openMap: false, secretsPublished: true }),
      'ended',
      'settled after the audit',
    );
    for (const p of ['Play', 'Combat', 'Dispute', 'Settled'] as const)
      assert.equal(read(p, { openMap: true, secretsPublished: true }), 'forced-open', p);
    assert.equal(read('Cancelled', { openMap: true, secretsPublished: false }), 'cancelled');
    assert.throws(() => read('None'), /game 1: no on-chain phase/);
  });
});
