/**
 * The page's saved session key: sealed under the wallet's vault key (SDK `sealRecord`), indexed in clear per
 * wallet and chain, opened only by its wallet, deployment and session; a remembered key fingerprint makes a
 * visit ask one signature instead of two; the export file's parser; the fog the page draws while a turn waits
 * for its tiles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Wallet } from 'ethers';
import { MemoryStateStore } from '../../client/sdk/store.ts';
import { recordHeader, VaultError, VaultKey } from '../../client/sdk/vault.ts';
import { drawnFog, type OwnTurn } from '../../client/web/history.ts';
import {
  type SessionRecord,
  SessionRecordError,
  SessionStore,
  sessionAddress,
  sessionHeader,
} from '../../client/web/session-store.ts';

const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const scope = { chainId: 11155111n, contract: CONTRACT };
const owner = new Wallet(`0x${'42'.repeat(32)}`);
const thief = new Wallet(`0x${'43'.repeat(32)}`);

/** A signer counting its prompts. */
function counting(w: Wallet) {
  const c = {
    prompts: 0,
    getAddress: () => w.getAddress(),
    signMessage: (m: string) => {
      c.prompts++;
      return w.signMessage(m);
    },
  };
  return c;
}

function record(o: Partial<SessionRecord> = {}): SessionRecord {
  return {
    version: 2,
    key: Wallet.createRandom().privateKey,
    owner: owner.address,
    chainId: scope.chainId,
    gameContract: CONTRACT,
    lobby: {
      id: 'l1',
      kind: 'duel',
      stake: 1000n,
      maxTurns: 8,
      gameContract: CONTRACT,
      disputeDeposit: 100n,
    },
    gameId: 7n,
    funded: 123n,
    over: false,
    history: [
      {
        kind: 'spawn',
        turn: 0,
        units: [{ type: 0, col: 1, row: 2, hp: 3 }, null],
        unserved: false,
        fog: '0120',
      },
    ],
    ...o,
  };
}

describe('the web session store', () => {
  it('seals a session, finds it after a "reload" by wallet and chain, opens it, forgets it', async () => {
    const idb = new MemoryStateStore();
    const key = await VaultKey.derive(owner, scope);
    const r = record();
    await new SessionStore(idb).save(key, r);
    // A new page: same storage, a fresh store object and a fresh derivation of the key.
    const again = new SessionStore(idb);
    const [entry, ...rest] = await again.entries(owner.address, scope.chainId);
    assert.deepEqual(rest, []);
    assert.deepEqual(entry, { address: sessionAddress(r.key), contract: CONTRACT, gameId: '7', over: false });
    assert.deepEqual(await again.load(await VaultKey.derive(owner, scope), entry!.address), r);
    assert.deepEqual(await again.entries(owner.address, 1n), [], 'another chain has none');
    // The session key is not in the stored bytes in clear.
    const blob = (await again.blob(owner.address, scope.chainId, entry!.address))!;
    assert.ok(!blob.includes(r.key.slice(2)));
    assert.equal(sessionHeader(blob).address, entry!.address);
    await again.save(key, { ...r, over: true });
    assert.equal((await again.entries(owner.address, scope.chainId))[0]!.over, true, 'one entry, updated');
    await again.remove(owner.address, scope.chainId, entry!.address);
    assert.deepEqual(await again.entries(owner.address, scope.chainId), []);
    assert.equal(await again.blob(owner.address, scope.chainId, entry!.address), null);
  });

  it('keeps the windows the listing showed (the join floors, review 31); malformed ones are refused', async () => {
    const store = new SessionStore(new MemoryStateStore());
    const key = await VaultKey.derive(owner, scope);
    const durations = {
      commitSeconds: 60,
      revealSeconds: 60,
      rootSeconds: 60,
      turnSeconds: 90,
      combatSeconds: 60,
      disputeSeconds: 60,
      secretsSeconds: 60,
      auditSeconds: 600,
    };
    const r = record({ lobby: { ...record().lobby!, durations } });
    await store.save(key, r);
    assert.deepEqual(await store.load(key, sessionAddress(r.key)), r);
    const old = record();
    await store.save(key, old);
    assert.equal(
      (await store.load(key, sessionAddress(old.key)))!.lobby!.durations,
      undefined,
      'saved before them',
    );
    const bad = record({
      lobby: { ...record().lobby!, durations: { ...durations, turnSeconds: '90' } as never },
    });
    await store.save(key, bad);
    await assert.rejects(store.load(key, sessionAddress(bad.key)), /lobby\.durations is malformed/);
  });

  it('keeps what the person picked besides the terms (review 37: a taken-up seat is held to it); malformed refused', async () => {
    const store = new SessionStore(new MemoryStateStore());
    const key = await VaultKey.derive(owner, scope);
    const pinned = {
      rulesetHash: `0x${'ab'.repeat(32)}`,
      seats: 2,
      bond: 10n ** 18n,
      dealer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    };
    const r = record({ lobby: { ...record().lobby!, pinned } });
    await store.save(key, r);
    assert.deepEqual(await store.load(key, sessionAddress(r.key)), r);
    const old = record();
    await store.save(key, old);
    assert.equal(
      (await store.load(key, sessionAddress(old.key)))!.lobby!.pinned,
      undefined,
      'saved before it',
    );
    for (const over of [{ rulesetHash: '0x12' }, { seats: 2.5 }, { dealer: 'nobody' }]) {
      const bad = record({ lobby: { ...record().lobby!, pinned: { ...pinned, ...over } as never } });
      await store.save(key, bad);
      await assert.rejects(store.load(key, sessionAddress(bad.key)), /lobby\.pinned is malformed/);
    }
  });

  it('keeps a Leave in progress (a reload finishes it, never joins again); anything but true is refused', async () => {
    const store = new SessionStore(new MemoryStateStore());
    const key = await VaultKey.derive(owner, scope);
    const r = record({ leaving: true });
    await store.save(key, r);
    assert.equal((await store.load(key, sessionAddress(r.key)))!.leaving, true);
    const before = record();
    await store.save(key, before);
    assert.equal((await store.load(key, sessionAddress(before.key)))!.leaving, undefined, 'saved before it');
    const bad = record({ leaving: false as never });
    await store.save(key, bad);
    await assert.rejects(store.load(key, sessionAddress(bad.key)), /leaving must be true/);
  });

  it('does not open under another wallet, deployment or session, nor tampered', async () => {
    const idb = new MemoryStateStore();
    const store = new SessionStore(idb);
    const key = await VaultKey.derive(owner, scope);
    const a = record();
    const b = record();
    await store.save(key, a);
    await store.save(key, b);
    const blobA = (await store.blob(owner.address, scope.chainId, sessionAddress(a.key)))!;
    const refusals: [VaultKey, string, RegExp][] = [
      [await VaultKey.derive(thief, scope), blobA, /belongs to account 0x/],
      [await VaultKey.derive(owner, { ...scope, chainId: 1n }), blobA, /belongs to chain 11155111, not 1/],
      [await VaultKey.derive(owner, { ...scope, contract: `0x${'11'.repeat(20)}` }), blobA, /game contract/],
    ];
    for (const [k, blob, re] of refusals)
      assert.throws(
        () => store.open(k, blob),
        (e: unknown) => e instanceof VaultError && re.test(e.message),
      );
    // A's blob relabelled as B's session: its binding is authenticated, so it fails to decrypt.
    const doc = JSON.parse(blobA);
    const relabelled = JSON.stringify({ ...doc, kind: `web-session/${sessionAddress(b.key)}` });
    assert.throws(
      () => store.open(key, relabelled),
      (e: unknown) => e instanceof VaultError && e.reason === 'auth',
    );
    const sealed = Buffer.from(doc.sealed, 'base64');
    sealed[5]! ^= 1;
    assert.throws(
      () => store.open(key, JSON.stringify({ ...doc, sealed: sealed.toString('base64') })),
      (e: unknown) => e instanceof VaultError && e.reason === 'auth',
    );
    // A record is not a player-state blob, and the other way round.
    assert.throws(
      () => key.open(7n, blobA),
      (e: unknown) => e instanceof VaultError && e.reason === 'format',
    );
    assert.throws(() => recordHeader(key.seal(7n, new Uint8Array(1))), /not a sealed-record blob/);
    // Saving another wallet's record under this key is refused before anything is written.
    await assert.rejects(store.save(key, record({ owner: thief.address })), SessionRecordError);
  });

  it('asks the wallet twice on a device the first time, then once per visit; a changed signature is refused', async () => {
    const idb = new MemoryStateStore();
    const first = counting(owner);
    const k1 = await VaultKey.derive(first, scope, { known: idb });
    assert.equal(first.prompts, 2, 'the determinism check, once per device');
    const second = counting(owner);
    const k2 = await VaultKey.derive(second, scope, { known: idb });
    assert.equal(second.prompts, 1, 'one signature per visit after that');
    const blob = k1.sealRecord('web-session/x', new Uint8Array([1, 2, 3]));
    assert.deepEqual(k2.openRecord('web-session/x', blob), new Uint8Array([1, 2, 3]));
    // A wallet whose signature now differs (non-deterministic): refused, not a key that opens nothing.
    let n = 0;
    const flaky = {
      getAddress: () => owner.getAddress(),
      signMessage: async (m: string) => (n++ === 0 ? thief.signMessage(m) : owner.signMessage(m)),
    };
    await assert.rejects(VaultKey.derive(flaky, scope, { known: idb }), /is by 0x/);
    // The fingerprint remembered on this device is not of this signature (as a non-deterministic wallet would
    // give): refused, rather than a key that cannot open what was sealed before.
    const ownerId = checkId(owner.address);
    const elsewhere = new MemoryStateStore();
    await VaultKey.derive(thief, scope, { known: elsewhere });
    await idb.put(ownerId, (await elsewhere.get(checkId(thief.address)))!);
    await assert.rejects(VaultKey.derive(owner, scope, { known: idb }), /different signature/);
  });
});

/** Where the vault remembers a wallet's key fingerprint. */
const checkId = (account: string) =>
  `shroud/key-check/v1/${scope.chainId}/${CONTRACT}/${account.toLowerCase()}`;

describe('the fog the page draws', () => {
  const h = (turn: number, fog: string): OwnTurn => ({ kind: 'turn', turn, units: [], unserved: false, fog });
  it('is the live fog, or the fog of the own turn before one still waiting for its tiles', () => {
    const history = [{ ...h(1, '1100'), kind: 'spawn' as const }, h(3, '2110'), h(5, '2211')];
    assert.equal(drawnFog(history, '2211', null), '2211');
    assert.equal(drawnFog(history, '2211', 5), '2110');
    assert.equal(drawnFog(history, '1100', 1), '0000', 'nothing before the spawn');
  });
});
