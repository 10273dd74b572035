/**
 * core/eip712.ts, core/signature.ts, core/address.ts and core/keccak.ts against ethers, the reference the core
 * used before it dropped ethers: every typed message of the protocol hashes to ethers' digest and recovers
 * the signer `verifyTypedData` recovers, and the signature policy matches (tests may use ethers; core may not).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  getAddress as ethersGetAddress,
  keccak256 as ethersKeccak,
  recoverAddress as ethersRecover,
  Signature,
  type Signer,
  TypedDataEncoder,
  toUtf8Bytes,
  verifyTypedData,
  Wallet,
} from 'ethers';
import { checksumAddress } from '../../core/address.ts';
import {
  hashDomain,
  hashTypedData,
  structEncoder,
  type TypedDataDomain,
  type TypedDataSigner,
  type TypedDataTypes,
} from '../../core/eip712.ts';
import { keccak256 } from '../../core/keccak.ts';
import {
  JOIN_TYPES,
  type JoinMessage,
  joinDigest,
  lobbyDomain,
  recoverJoinSigner,
  signJoin,
} from '../../core/lobby.ts';
import { REVEAL_RECEIPT_TYPES, recoverReceiptSigner, signRevealReceipt } from '../../core/reveal-receipt.ts';
import {
  REVEAL_REQUEST_TYPES,
  recoverRevealSigner,
  revealDigest,
  revealDomain,
  signRevealRequest,
} from '../../core/reveal-request.ts';
import { REVEAL_SESSION_TYPES, revealSessionDigest, signRevealSession } from '../../core/reveal-session.ts';
import { canonicalJson, rulesetHash } from '../../core/ruleset/hash.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import { recoverAddress } from '../../core/signature.ts';

const ALICE = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const N = secp256k1.Point.Fn.ORDER;

const hex32 = (): string => `0x${randomBytes(32).toString('hex')}`;
const u = (bits: number): bigint => BigInt(`0x${randomBytes(bits / 8).toString('hex')}`);
const randomAddress = (): string => ethersGetAddress(`0x${randomBytes(20).toString('hex')}`);

/** An ethers Signer is a TypedDataSigner (this line is the type check). */
const asCoreSigner = (s: Signer): TypedDataSigner => s;

/**
 * One typed message of the protocol: how the core hashes, signs and recovers it, a random instance, and a
 * change to each field (a different value of the same type).
 */
interface Case {
  name: string;
  types: TypedDataTypes;
  domain: TypedDataDomain;
  random(): Record<string, any>;
  tamper: Record<string, (v: any) => unknown>;
  digest(domain: TypedDataDomain, m: any): string;
  sign(signer: TypedDataSigner, domain: TypedDataDomain, m: any): Promise<string>;
  recover(domain: TypedDataDomain, m: any, sig: string): string;
}

/** Another value of the same unsigned type: one less, or one more at zero. */
function bump(v: bigint | number): bigint | number {
  if (typeof v === 'bigint') return v > 0n ? v - 1n : v + 1n;
  return v > 0 ? v - 1 : v + 1;
}
const otherHex = (v: string): string => `${v.slice(0, -1)}${v.endsWith('0') ? '1' : '0'}`;

const CASES: Case[] = [
  {
    name: 'RevealRequest',
    types: REVEAL_REQUEST_TYPES,
    domain: revealDomain(31337n, CONTRACT),
    random: () => ({
      gameId: u(256),
      player: randomAddress(),
      turn: Number(u(32)),
      leaves: [Number(u(32)), 0, 2 ** 32 - 1],
      blinding: u(256),
      stateCommit: u(256),
      nonce: u(256),
      expiry: Number(u(32)),
    }),
    tamper: {
      gameId: bump,
      player: () => randomAddress(),
      turn: bump,
      leaves: (l: number[]) => [...l.slice(0, -1), l.at(-1)! - 1],
      blinding: bump,
      stateCommit: bump,
      nonce: bump,
      expiry: bump,
    },
    digest: revealDigest,
    sign: signRevealRequest,
    recover: recoverRevealSigner,
  },
  {
    name: 'RevealReceipt',
    types: REVEAL_RECEIPT_TYPES,
    domain: revealDomain(1n, CONTRACT),
    random: () => ({ gameId: u(256), turn: Number(u(32)), revealCommit: u(256) }),
    tamper: { gameId: bump, turn: bump, revealCommit: bump },
    digest: (d, m) => hashTypedData(d, REVEAL_RECEIPT_TYPES, m),
    sign: signRevealReceipt,
    recover: recoverReceiptSigner,
  },
  {
    name: 'RevealSession',
    types: REVEAL_SESSION_TYPES,
    domain: revealDomain(31337n, CONTRACT),
    random: () => ({
      gameId: u(256),
      player: randomAddress(),
      sessionKeyHash: hex32(),
      expiry: Number(u(32)),
      nonce: u(256),
    }),
    tamper: {
      gameId: bump,
      player: () => randomAddress(),
      sessionKeyHash: otherHex,
      expiry: bump,
      nonce: bump,
    },
    digest: revealSessionDigest,
    sign: signRevealSession,
    // The dealer recovers a session's signer from its digest (the session id).
    recover: (d, m, sig) => recoverAddress(revealSessionDigest(d, m), sig).toLowerCase(),
  },
  {
    name: 'Join',
    types: JOIN_TYPES,
    domain: lobbyDomain(8453n, CONTRACT),
    random: (): Record<keyof JoinMessage, unknown> => ({
      lobbyId: hex32(),
      player: randomAddress(),
      rulesetHash: hex32(),
      stake: u(96),
      seats: 2 + Number(u(8) % 5n),
      nonce: hex32(),
      deadline: Number(u(32)),
    }),
    tamper: {
      lobbyId: otherHex,
      player: () => randomAddress(),
      rulesetHash: otherHex,
      stake: bump,
      seats: bump,
      nonce: otherHex,
      deadline: bump,
    },
    digest: joinDigest,
    sign: signJoin,
    recover: recoverJoinSigner,
  },
];

describe('EIP-712 messages: the core equals ethers', () => {
  for (const c of CASES) {
    const primary = Object.keys(c.types)[0]!;

    test(`${c.name}: type string and digests equal ethers' TypedDataEncoder`, () => {
      assert.equal(structEncoder(c.types).encodeType, TypedDataEncoder.from(c.types).encodeType(primary));
      assert.equal(hashDomain(c.domain), TypedDataEncoder.hashDomain(c.domain));
      for (let i = 0; i < 20; i++) {
        const m = c.random();
        assert.equal(c.digest(c.domain, m), TypedDataEncoder.hash(c.domain, c.types, m));
      }
    });

    test(`${c.name}: an ethers Wallet's signature recovers as verifyTypedData; any changed field or domain recovers someone else`, async () => {
      const who = ALICE.address.toLowerCase();
      for (let i = 0; i < 3; i++) {
        const m = c.random();
        const sig = await c.sign(asCoreSigner(ALICE), c.domain, m);
        assert.equal(c.recover(c.domain, m, sig), who);
        assert.equal(verifyTypedData(c.domain, c.types, m, sig).toLowerCase(), who);
        assert.deepEqual(Object.keys(c.tamper).sort(), Object.keys(m).sort(), 'every field is tampered');
        for (const [field, change] of Object.entries(c.tamper)) {
          const changed = { ...m, [field]: change(m[field]) };
          assert.notDeepEqual(changed, m);
          assert.notEqual(c.recover(c.domain, changed, sig), who, `${c.name}.${field} changed`);
        }
        const domains: TypedDataDomain[] = [
          { ...c.domain, chainId: BigInt(c.domain.chainId!) + 1n },
          { ...c.domain, verifyingContract: randomAddress() },
          { ...c.domain, name: `${c.domain.name}!` },
          { ...c.domain, version: '2' },
        ];
        for (const d of domains) assert.notEqual(c.recover(d, m, sig), who);
      }
    });
  }

  test('RevealRequest signs the play-commitment opening: stateCommit right after blinding', () => {
    assert.equal(
      structEncoder(REVEAL_REQUEST_TYPES).encodeType,
      'RevealRequest(uint256 gameId,address player,uint32 turn,uint32[] leaves,uint256 blinding,' +
        'uint256 stateCommit,uint256 nonce,uint64 expiry)',
    );
  });

  test('a join signature is never a reveal signature (domain names differ)', () => {
    assert.notEqual(hashDomain(lobbyDomain(1n, CONTRACT)), hashDomain(revealDomain(1n, CONTRACT)));
  });
});

describe('EIP-712 encoding beyond the messages: every supported type equals ethers; the rest is refused', () => {
  const PROBE: TypedDataTypes = {
    Probe: [
      { name: 'a', type: 'uint8' },
      { name: 'b', type: 'int8' },
      { name: 'c', type: 'int256' },
      { name: 'd', type: 'bool' },
      { name: 'e', type: 'string' },
      { name: 'f', type: 'bytes' },
      { name: 'g', type: 'bytes4' },
      { name: 'h', type: 'address[]' },
      { name: 'i', type: 'string[]' },
      { name: 'j', type: 'uint16[][]' },
    ],
  };
  const probe = {
    a: 255,
    b: -128,
    c: -(1n << 200n),
    d: true,
    e: 'fog of war ✓',
    f: '0xdeadbeef00',
    g: '0x01020304',
    h: [randomAddress(), randomAddress().toLowerCase()],
    i: ['', 'x'],
    j: [[1, 2], [], [65535]],
  };

  test('digest equals ethers for ints, bool, string, bytes, bytesN, and nested dynamic arrays', () => {
    const domain = { name: 'P', chainId: 5, verifyingContract: CONTRACT, salt: hex32() };
    assert.equal(hashTypedData(domain, PROBE, probe), TypedDataEncoder.hash(domain, PROBE, probe));
    const hexForms = { ...probe, a: '0xff', c: (-(1n << 200n)).toString() };
    assert.equal(hashTypedData(domain, PROBE, hexForms), TypedDataEncoder.hash(domain, PROBE, probe));
  });

  test('domain separators equal ethers for any subset of fields; null fields are left out; unknown keys refused', () => {
    const full: TypedDataDomain = {
      name: 'Shroud',
      version: '1',
      chainId: '0x7a69',
      verifyingContract: CONTRACT.toLowerCase(),
      salt: hex32(),
    };
    const keys = Object.keys(full) as (keyof TypedDataDomain)[];
    for (let mask = 1; mask < 1 << keys.length; mask++) {
      const d = Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, full[k]]));
      assert.equal(hashDomain(d), TypedDataEncoder.hashDomain(d), JSON.stringify(d));
    }
    assert.equal(hashDomain({ name: 'X', version: null }), TypedDataEncoder.hashDomain({ name: 'X' }));
    assert.throws(
      () => hashDomain({ name: 'X', chain: 1 } as TypedDataDomain),
      /domain\.chain: not an EIP-712 domain field/,
    );
  });

  test('the cache keeps domains that print alike apart', () => {
    const a = { name: 'a\nb', version: 'c' };
    const b = { name: 'a', version: 'b\nc' };
    assert.equal(hashDomain(a), TypedDataEncoder.hashDomain(a));
    assert.equal(hashDomain(b), TypedDataEncoder.hashDomain(b));
    assert.equal(hashDomain({ chainId: 1n }), hashDomain({ chainId: '1' }));
  });

  test('a value that does not fit its type is refused naming the field, never truncated', () => {
    const T: TypedDataTypes = {
      T: [
        { name: 'small', type: 'uint8' },
        { name: 'signed', type: 'int8' },
        { name: 'stake', type: 'uint96' },
        { name: 'id', type: 'bytes32' },
        { name: 'who', type: 'address' },
        { name: 'list', type: 'uint32[]' },
        { name: 'flag', type: 'bool' },
      ],
    };
    const ok = {
      small: 1,
      signed: -1,
      stake: 1n,
      id: hex32(),
      who: CONTRACT,
      list: [1],
      flag: false,
    };
    const d = { chainId: 1n };
    assert.equal(hashTypedData(d, T, ok), TypedDataEncoder.hash(d, T, ok));
    const bad: [string, unknown, RegExp][] = [
      ['small', 256, /^small: out of range for uint8/],
      ['small', -1, /^small: out of range for uint8/],
      ['small', 1.5, /^small: uint8 needs an integer/],
      ['small', 'ten', /^small: uint8 needs an integer/],
      ['signed', 128, /^signed: out of range for int8/],
      ['signed', -129, /^signed: out of range for int8/],
      ['stake', 1n << 96n, /^stake: out of range for uint96/],
      ['id', `0x${'ab'.repeat(31)}`, /^id: must be 32 bytes, got 31/],
      ['id', `${hex32()}00`, /^id: must be 32 bytes, got 33/],
      ['id', 'ab'.repeat(32), /^id: must be a 0x-prefixed hex string/],
      ['who', CONTRACT.replace('F', 'f'), /^who: bad EIP-55 checksum/],
      ['who', CONTRACT.slice(2), /^who: not an address/],
      ['who', `${CONTRACT}00`, /^who: not an address/],
      ['list', [1, 2 ** 32], /^list\[1\]: out of range for uint32/],
      ['list', 7, /^list: uint32\[\] needs an array/],
      ['flag', 1, /^flag: bool needs true or false/],
      ['flag', undefined, /^flag: missing/],
    ];
    for (const [field, value, message] of bad) {
      assert.throws(
        () => hashTypedData(d, T, { ...ok, [field]: value }),
        (e: any) => e.name === 'InputError' && e.field.startsWith(field) && message.test(e.message),
        `${field} = ${String(value)}`,
      );
    }
  });

  test('types the core does not hash exactly are refused when the encoder is built', () => {
    for (const type of [
      'uint7',
      'uint264',
      'uint',
      'bytes0',
      'bytes33',
      'uint256[2]',
      'Person',
      'function',
      'tuple',
    ]) {
      assert.throws(
        () => structEncoder({ T: [{ name: 'x', type }] }),
        (e: any) => e.name === 'InputError' && e.message.includes(`"${type}" is not supported`),
        type,
      );
    }
    assert.throws(() => structEncoder({ A: [], B: [] }), /exactly one struct type is supported, got 2/);
    assert.throws(() => structEncoder({ EIP712Domain: [] }), /EIP712Domain is implied/);
    assert.throws(
      () =>
        structEncoder({
          T: [
            { name: 'x', type: 'uint8' },
            { name: 'x', type: 'uint8' },
          ],
        }),
      /duplicate field "x"/,
    );
  });
});

describe('signature recovery: the policy ethers applied', () => {
  const digest = revealDigest(revealDomain(1n, CONTRACT), {
    gameId: 1n,
    player: ALICE.address,
    turn: 1,
    leaves: [0],
    blinding: 2n,
    stateCommit: 5n,
    nonce: 3n,
    expiry: 4,
  });
  const sig = Signature.from(ALICE.signingKey.sign(digest));
  const r = BigInt(sig.r);
  const s = BigInt(sig.s);
  const word = (x: bigint): string => x.toString(16).padStart(64, '0');
  const raw = (rr: bigint, ss: bigint, v: number): string =>
    `0x${word(rr)}${word(ss)}${v.toString(16).padStart(2, '0')}`;

  /** Ours refuses with an InputError on `field`, and so does ethers (the policy is unchanged). */
  function bothRefuse(signature: string, what: string, field = 'signature'): void {
    assert.throws(
      () => recoverAddress(digest, signature),
      (e: any) => e.name === 'InputError' && e.field === field,
      what,
    );
    assert.throws(() => ethersRecover(digest, signature), `ethers refuses ${what} too`);
  }

  test('the low-s signature in every encoding ethers reads (v 27/28, v 0/1, EIP-2098 64 bytes) recovers the signer', () => {
    assert.ok(s <= N >> 1n, 'wallets sign low-s');
    for (const encoded of [sig.serialized, raw(r, s, sig.yParity), sig.compactSerialized]) {
      assert.equal(recoverAddress(digest, encoded), ALICE.address);
      assert.equal(ethersRecover(digest, encoded), ALICE.address);
    }
  });

  test('the high-s twin (r, n − s, other v), which ecrecover maps to the same signer, is refused as ethers refuses it', () => {
    bothRefuse(raw(r, N - s, 27 + (1 - sig.yParity)), 'the high-s twin');
    bothRefuse(raw(r, N - s, 27 + sig.yParity), 'a high s with the original v');
  });

  test('a flipped v recovers another address (both agree); a v that is no parity is refused', () => {
    const flipped = raw(r, s, 27 + (1 - sig.yParity));
    assert.notEqual(recoverAddress(digest, flipped), ALICE.address);
    assert.equal(recoverAddress(digest, flipped), ethersRecover(digest, flipped));
    for (const v of [2, 26, 29, 34]) bothRefuse(raw(r, s, v), `v = ${v}`);
    // ethers reads v ≥ 35 as EIP-155 (transactions); typed-data signatures never carry it, so the core refuses it.
    assert.equal(ethersRecover(digest, raw(r, s, 35 + (sig.yParity ? 1 : 0))), ALICE.address);
    assert.throws(() => recoverAddress(digest, raw(r, s, 35 + (sig.yParity ? 1 : 0))), /v must be 27 or 28/);
  });

  test('truncated, padded and malformed signatures are refused', () => {
    bothRefuse(sig.serialized.slice(0, -4), '63 bytes');
    bothRefuse(`${sig.serialized}00`, '66 bytes');
    bothRefuse('0x', 'empty');
    bothRefuse(sig.serialized.slice(0, -1), 'odd hex');
    bothRefuse(`0x${'zz'.repeat(65)}`, 'not hex');
    assert.throws(() => recoverAddress(digest, sig.serialized.slice(2)), /signature: must be a 0x-prefixed/);
    assert.throws(() => recoverAddress(digest, 42), /signature: must be a 0x-prefixed/);
  });

  test('r or s outside [1, n), and an r that is no curve point, are refused', () => {
    bothRefuse(raw(0n, s, 27), 'r = 0');
    bothRefuse(raw(r, 0n, 27), 's = 0');
    bothRefuse(raw(N, s, 27), 'r = n');
    bothRefuse(raw(N + r, s, 27), 'r ≥ n');
    let x = 1n;
    while (isCurveX(x)) x++;
    bothRefuse(raw(x, s, 27), 'r with no point');
    assert.throws(() => recoverAddress(digest, raw(x, s, 27)), /recovers no public key/);
  });

  test('the digest must be 32 bytes', () => {
    assert.throws(
      () => recoverAddress(digest.slice(0, -2), sig.serialized),
      /^InputError: digest: must be 32 bytes/,
    );
  });
});

/** Whether x is the x-coordinate of a secp256k1 point. */
function isCurveX(x: bigint): boolean {
  try {
    secp256k1.Point.fromHex(`02${x.toString(16).padStart(64, '0')}`);
    return true;
  } catch {
    return false;
  }
}

describe('addresses and keccak', () => {
  test('checksumAddress equals ethers getAddress; all-lower and all-upper digits are accepted, a wrong mixed case is not', () => {
    for (let i = 0; i < 50; i++) {
      const a = `0x${randomBytes(20).toString('hex')}`;
      const want = ethersGetAddress(a);
      assert.equal(checksumAddress(a), want);
      assert.equal(checksumAddress(want), want);
      assert.equal(checksumAddress(`0x${a.slice(2).toUpperCase()}`), want);
    }
    assert.throws(
      () => checksumAddress(CONTRACT.replace('b', 'B'), 'player'),
      /^InputError: player: bad EIP-55/,
    );
    assert.throws(() => checksumAddress('0X5FBDB2315678AFECB367F032D93F642F64180AA3'), /not an address/);
  });

  test('keccak256 equals ethers; the ruleset hash of every shipped ruleset is the one ethers computed', () => {
    for (const n of [0, 1, 135, 136, 137, 1000]) {
      const b = randomBytes(n);
      assert.equal(keccak256(b), ethersKeccak(b));
    }
    for (const name of shippedRulesetNames) {
      const r = shippedRuleset(name);
      assert.equal(rulesetHash(r), ethersKeccak(toUtf8Bytes(canonicalJson(r))), name);
    }
  });
});
