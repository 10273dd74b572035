/**
 * The typed contract surface (client/sdk/typed-contract.ts over the generated core/abi/ ABIs). At run time:
 * events parse into their names and fields, reverts decode to the ABI's error names, and the per-name pickers
 * are ethers' own methods. At compile time (`npx tsc --noEmit`, part of CI's typecheck): every
 * `@ts-expect-error` below must be an error, so if the types decayed to `any` the directive itself would fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Log, Wallet } from 'ethers';
import type { GameContract } from '../../client/sdk/chain.ts';
import {
  type FunctionResult,
  parseEvent,
  revertName,
  typedContract,
  viewOf,
  writeOf,
} from '../../client/sdk/typed-contract.ts';
import { MAP_PROOF_REGISTRY_ABI } from '../../core/abi/map-proof-registry.ts';
import { SHROUD_GAME_ABI } from '../../core/abi/shroud-game.ts';

const GAME = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const game = typedContract(GAME, SHROUD_GAME_ABI);

/** A log of `game` as a node would return it. */
function logOf(name: string, args: unknown[]): Log {
  const iface = game.interface;
  const { data, topics } = iface.encodeEventLog(iface.getEvent(name)!, args);
  return { address: GAME, data, topics, transactionHash: '0x01', blockNumber: 7 } as unknown as Log;
}

describe('typed contracts', () => {
  it('parses a game event into its name and typed fields; a foreign log is null', () => {
    const players = [Wallet.createRandom().address, Wallet.createRandom().address];
    const e = parseEvent(
      game,
      logOf('GameCreated', [5n, players[0], players, `0x${'ab'.repeat(32)}`, 9n, 3n]),
    );
    assert.equal(e?.name, 'GameCreated');
    if (e?.name !== 'GameCreated') return;
    assert.equal(e.args.gameId, 5n);
    assert.deepEqual([...e.args.players], players);
    assert.equal(e.args.bond, 9n);
    const registry = typedContract(GAME, MAP_PROOF_REGISTRY_ABI);
    assert.equal(
      parseEvent(registry, logOf('GameCreated', [5n, players[0], players, `0x${'00'.repeat(32)}`, 0n, 0n])),
      null,
    );
  });

  it('names a revert by the ABI’s errors, from ethers’ decoding or the raw data; unknown data is undefined', () => {
    const data = game.interface.encodeErrorResult('WrongPhase', [4, 1]);
    assert.equal(revertName(game, { data }), 'WrongPhase');
    assert.equal(revertName(game, { info: { error: { data } } }), 'WrongPhase');
    // A node's raw error (EDR's shape when it cannot name the contract's error): `data: { reason, data }`.
    assert.equal(revertName(game, { code: -32000, data: { reason: { Revert: data }, data } }), 'WrongPhase');
    assert.equal(revertName(game, { revert: { name: 'UnknownGame' } }), 'UnknownGame');
    assert.equal(revertName(game, { data: '0xdeadbeef' }), undefined);
    assert.equal(revertName(game, new Error('no data')), undefined);
  });

  it('the pickers by name are the contract’s own functions (views call, writes send)', () => {
    assert.equal(viewOf(game, 'getGame').fragment.format('sighash'), 'getGame(uint256)');
    assert.equal(writeOf(game, 'commit').fragment.payable, true);
  });

  it('a function name missing from the ABI fails at compile time and at run time alike', () => {
    // @ts-expect-error: not a function of ShroudGame
    assert.throws(() => viewOf(game, 'reportBadCiphertext'), /no matching function/);
  });
});

/** Never called: it exists so that tsc checks the types of calls against the ABI. */
export async function typeChecks(g: GameContract): Promise<unknown[]> {
  const r = await g.getGame(1n);
  const dealer: string = r.dealer;
  const phase: bigint = r.phase; // ethers decodes uint8 as a bigint
  const byPosition: boolean = r[10];
  // @ts-expect-error: phase is a uint8, not a string
  const wrong: string = r.phase;
  const seat = await g.getSeat(1n, 0);
  const committed: boolean = seat.committed;
  const sealKey: readonly [bigint, bigint] = (await g.getGameConfig(1n)).sealKey;
  type Bounds = FunctionResult<typeof SHROUD_GAME_ABI, 'durationBounds'>;
  const floor: bigint = ((await g.durationBounds()) satisfies Bounds).minimum.commitSeconds;
  await g.commit(1n, 2n, { value: 3n });
  const gas: bigint = await g.commit.estimateGas(1n, 2n);
  // @ts-expect-error: a game id is a uint256, not a string
  await g.getGame('1');
  // @ts-expect-error: commit takes the commitment too
  await g.commit(1n);
  // @ts-expect-error: no such function
  await g.reportBadCiphertext(1n);
  // @ts-expect-error: leaves are uint32[]
  await g.openDispute(1n, 5n, 2n);
  g.filters.GameCreated(null, GAME);
  // @ts-expect-error: GameCreated has two indexed fields
  g.filters.GameCreated(1n, GAME, 3n);
  const e = parseEvent(g, {} as Log);
  // @ts-expect-error: a union of every event: fields are known only once the name is checked
  e?.args.players;
  // @ts-expect-error: no such error in the ABI
  if (revertName(g, null) === 'UnknownGamez') return [];
  return [dealer, phase, byPosition, wrong, committed, sealKey, floor, gas];
}
