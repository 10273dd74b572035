/** The EIP-712 `Join` of core/lobby.ts: typed data, signing and recovery, and the checks dealer and SDK share. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TypedDataEncoder, Wallet } from 'ethers';
import {
  checkJoinDeadline,
  checkJoinMessage,
  checkJoinTerms,
  fromJoinBody,
  JOIN_TYPES,
  type JoinMessage,
  joinDigest,
  lobbyDomain,
  MAX_UINT96,
  randomBytes32,
  recoverJoinSigner,
  rulesetHash,
  shippedRuleset,
  signJoin,
  toJoinBody,
} from '../../core/index.ts';

const ALICE = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const MALLORY = new Wallet('0x47e179ec197488593b187f80a00eb0da91f1c9b0b13d8733555dd8ea0c9e4a27');
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const DOMAIN = lobbyDomain(31337n, CONTRACT);
const TINY = rulesetHash(shippedRuleset('tiny'));
const LOBBY = { id: `0x${'ab'.repeat(32)}`, ruleset: 'tiny', rulesetHash: TINY, seats: 2, stake: 1000n };

const join = (o: Partial<JoinMessage> = {}): JoinMessage => ({
  lobbyId: LOBBY.id,
  player: ALICE.address,
  rulesetHash: TINY,
  stake: 1000n,
  seats: 2,
  nonce: `0x${'01'.repeat(32)}`,
  deadline: 1_700_000_000,
  ...o,
});

function refused(f: () => void, code: string, field: string, message: RegExp): void {
  assert.throws(f, (e: any) => {
    assert.equal(e.name, 'JoinRefusedError');
    assert.equal(e.code, code);
    assert.equal(e.field, field);
    assert.match(e.message, message);
    return true;
  });
}

describe('lobby joins (EIP-712)', () => {
  test('the domain is "Shroud Lobby" v1 bound to chain and game contract; the type is Join', () => {
    assert.deepEqual(DOMAIN, {
      name: 'Shroud Lobby',
      version: '1',
      chainId: 31337n,
      verifyingContract: CONTRACT,
    });
    assert.equal(
      TypedDataEncoder.from(JOIN_TYPES).encodeType('Join'),
      'Join(bytes32 lobbyId,address player,bytes32 rulesetHash,uint96 stake,uint8 seats,bytes32 nonce,uint64 deadline)',
    );
  });

  test('a signature recovers to its signer, and to nobody else under another chain, contract or field', async () => {
    const m = join();
    const sig = await signJoin(ALICE, DOMAIN, m);
    assert.equal(recoverJoinSigner(DOMAIN, m, sig), ALICE.address.toLowerCase());
    assert.equal(joinDigest(DOMAIN, m), TypedDataEncoder.hash(DOMAIN, JOIN_TYPES, m));
    const other = [
      recoverJoinSigner(lobbyDomain(1n, CONTRACT), m, sig),
      recoverJoinSigner(lobbyDomain(31337n, MALLORY.address), m, sig),
      recoverJoinSigner(DOMAIN, { ...m, stake: 999n }, sig),
      recoverJoinSigner(DOMAIN, { ...m, lobbyId: `0x${'cd'.repeat(32)}` }, sig),
    ];
    for (const who of other) assert.notEqual(who, ALICE.address.toLowerCase());
  });

  test('the wire body round-trips to the signed message', async () => {
    const m = join({ stake: MAX_UINT96 });
    const body = toJoinBody(m, '0xsig');
    assert.equal(body.stake, MAX_UINT96.toString());
    assert.deepEqual(fromJoinBody(m.lobbyId, body), m);
  });

  test('malformed fields are InputErrors naming the field', () => {
    const cases: [Partial<JoinMessage>, string][] = [
      [{ lobbyId: '0x12' }, 'lobbyId'],
      [{ player: '0xnot' }, 'player'],
      [{ rulesetHash: 'tiny' }, 'rulesetHash'],
      [{ stake: MAX_UINT96 + 1n }, 'stake'],
      [{ stake: -1n }, 'stake'],
      [{ seats: 1 }, 'seats'],
      [{ seats: 7 }, 'seats'],
      [{ nonce: '0x' }, 'nonce'],
      [{ deadline: -1 }, 'deadline'],
      [{ deadline: 1.5 }, 'deadline'],
    ];
    for (const [o, field] of cases) {
      assert.throws(
        () => checkJoinMessage(join(o)),
        (e: any) => e.name === 'InputError' && e.field === field,
        field,
      );
    }
    assert.throws(
      () => fromJoinBody(LOBBY.id, { ...toJoinBody(join(), '0x'), stake: '1e3' }),
      (e: any) => e.field === 'stake',
    );
  });

  test('deadline: refused once passed, or further ahead than the dealer allows', () => {
    const now = 1_700_000_000;
    checkJoinDeadline({ deadline: now + 1 }, now, 600);
    checkJoinDeadline({ deadline: now + 600 }, now, 600);
    refused(() => checkJoinDeadline({ deadline: now }, now, 600), 'expired', 'deadline', /passed 0 s ago/);
    refused(
      () => checkJoinDeadline({ deadline: now + 601 }, now, 600),
      'deadline-too-far',
      'deadline',
      /601 s ahead; at most 600 s/,
    );
  });

  test('terms: the lobby, its ruleset and seats must match; the stake signed is the most the player pays', () => {
    checkJoinTerms(join(), LOBBY);
    checkJoinTerms(join({ stake: 5000n }), LOBBY); // accepts more than the lobby asks
    refused(
      () => checkJoinTerms(join({ lobbyId: randomBytes32() }), LOBBY),
      'lobby-mismatch',
      'lobbyId',
      /signed for lobby/,
    );
    refused(
      () => checkJoinTerms(join({ rulesetHash: rulesetHash(shippedRuleset('duel')) }), LOBBY),
      'ruleset-mismatch',
      'rulesetHash',
      /the lobby plays tiny/,
    );
    refused(() => checkJoinTerms(join({ seats: 3 }), LOBBY), 'seats-mismatch', 'seats', /seats 2 players/);
    refused(
      () => checkJoinTerms(join({ stake: 999n }), LOBBY),
      'stake-too-low',
      'stake',
      /stake is 1000 wei, the join accepts at most 999/,
    );
  });

  test('random ids are 32 bytes and differ', () => {
    const a = randomBytes32();
    assert.match(a, /^0x[0-9a-f]{64}$/);
    assert.notEqual(a, randomBytes32());
  });
});
