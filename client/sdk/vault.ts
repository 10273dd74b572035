/**
 * The player's hidden state, encrypted at rest under a key only the player's wallet can make again. Browser-safe.
 *
 * Key: the wallet signs (EIP-191 `personal_sign`) a fixed, human-readable text naming the chain, the game
 * contract and the account (`vaultKeyMessage`). That text is the same on every reload, so a wallet with
 * deterministic signatures (RFC 6979: ethers, MetaMask, hardware wallets) gives the same signature each time;
 * the signature never leaves the page and is the input keying material. One prompt per deployment and account,
 * not per game: each game and seat gets its own key by HKDF-SHA256 (info = the binding below).
 * Why the chain and contract are in the text: a signature asked for on another deployment (or a phishing copy of
 * another one) does not open this one's state. Why not the game id: one signature serves every game of a session.
 *
 * Blob: XChaCha20-Poly1305 under a random 24-byte nonce, with associated data binding the chain id, the contract,
 * the game id and the seat's address: a blob copied from another game, seat or chain fails to open. The blob is
 * JSON text that also names that binding in clear, so a misplaced blob is refused saying whose it is.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import { verifyMessage } from 'ethers';
import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { decodeSnapshot, encodeSnapshot, type PlayerSnapshot, type SnapshotStore } from './snapshot.ts';
import type { StateStore } from './store.ts';

const VERSION = 1;
const SALT = utf8ToBytes('shroud/player-state/v1');

/** What a wallet must do for the vault (an ethers Signer does). */
export interface VaultSigner {
  getAddress(): Promise<string>;
  /** EIP-191 personal_sign of a UTF-8 text; 0x-hex 65-byte signature. */
  signMessage(message: string): Promise<string>;
}

/** Where a key is valid: one deployment of the game contract. */
export interface VaultScope {
  chainId: bigint;
  contract: string;
}

export type VaultErrorReason = 'signer' | 'format' | 'binding' | 'auth' | 'exists';

/** A key could not be made, or a blob was refused; `reason` says which check. Nothing was stored. */
export class VaultError extends Error {
  readonly reason: VaultErrorReason;
  constructor(reason: VaultErrorReason, message: string) {
    super(`player state vault: ${message}`);
    this.name = 'VaultError';
    this.reason = reason;
  }
}

const lower = (a: string) => a.toLowerCase();
function bytesToUtf8(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    throw new VaultError('format', 'not UTF-8 text');
  }
}
const gameHex = (g: bigint) => `0x${g.toString(16)}`;

/** The text the wallet signs: fixed per chain, contract and account (never a nonce or a date). */
export function vaultKeyMessage(scope: VaultScope, account: string): string {
  return [
    'Shroud player state key v1',
    '',
    'Signing this makes the key that encrypts your hidden game state (your share, units and blindings) on this',
    'device. It sends no transaction and costs nothing. Sign it only in a Shroud client: whoever holds this',
    'signature can read that state.',
    '',
    `chain: ${scope.chainId}`,
    `contract: ${lower(scope.contract)}`,
    `account: ${lower(account)}`,
  ].join('\n');
}

export interface DeriveOptions {
  /**
   * Where a fingerprint of the key is remembered (per chain, contract and account): with one there, the wallet
   * is asked once, its signature checked against it; without, twice (the determinism check), then remembered.
   * A page asks one signature per load instead of two.
   */
  known?: StateStore;
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The associated data (and HKDF info) of an application record (`sealRecord`). */
function recordBinding(scope: VaultScope, kind: string, player: string): Uint8Array {
  return utf8ToBytes(
    `shroud/sealed-record/v${VERSION}|kind=${kind}|chain=${scope.chainId}|contract=${lower(scope.contract)}|player=${lower(player)}`,
  );
}

/** The associated data (and HKDF info) of one seat's blobs. */
function bindingBytes(scope: VaultScope, gameId: bigint, player: string): Uint8Array {
  return utf8ToBytes(
    `shroud/player-state/v${VERSION}|chain=${scope.chainId}|contract=${lower(scope.contract)}|game=${gameHex(gameId)}|player=${lower(player)}`,
  );
}

function fromBase64(s: string, field: string): Uint8Array {
  const b = base64ToBytes(s);
  if (!b) throw new VaultError('format', `${field}: not base64`);
  return b;
}

/** The key material of one account on one deployment (the signature); seals and opens that account's blobs. */
export class VaultKey {
  readonly scope: VaultScope;
  readonly player: string;
  readonly #ikm: Uint8Array;

  private constructor(scope: VaultScope, player: string, ikm: Uint8Array) {
    this.scope = { chainId: scope.chainId, contract: lower(scope.contract) };
    this.player = lower(player);
    this.#ikm = ikm;
  }

  /**
   * Asks the wallet for the signature twice: a wallet whose signatures are not deterministic could never open
   * this state again after a reload, so it is refused here, before anything is sealed.
   */
  static async derive(signer: VaultSigner, scope: VaultScope, o: DeriveOptions = {}): Promise<VaultKey> {
    const account = await signer.getAddress();
    const message = vaultKeyMessage(scope, account);
    const checkId = `shroud/key-check/v${VERSION}/${scope.chainId}/${lower(scope.contract)}/${lower(account)}`;
    const known = o.known ? await o.known.get(checkId) : null;
    const first = await signer.signMessage(message);
    if (!known) {
      const second = await signer.signMessage(message);
      if (first !== second)
        throw new VaultError(
          'signer',
          `the wallet of ${lower(account)} signed the state-key message twice with different signatures: its state could not be decrypted after a reload (use a wallet with deterministic signatures, RFC 6979)`,
        );
    }
    let signedBy: string;
    try {
      signedBy = verifyMessage(message, first);
    } catch {
      throw new VaultError('signer', `the wallet returned a malformed signature (${first.slice(0, 20)}…)`);
    }
    if (lower(signedBy) !== lower(account))
      throw new VaultError('signer', `the signature is by ${lower(signedBy)}, not ${lower(account)}`);
    const key = new VaultKey(scope, account, hexToBytes(first.slice(2)));
    const check = key.#check();
    if (known && !equalBytes(known, check))
      throw new VaultError(
        'signer',
        `the wallet of ${lower(account)} gave a different signature of the state-key message than it gave on this device before: what it sealed then cannot be opened (a wallet without deterministic signatures?)`,
      );
    if (o.known && !known) await o.known.put(checkId, check);
    return key;
  }

  /** A one-way fingerprint of the key material: tells a later signature's key is the same, reveals nothing. */
  #check(): Uint8Array {
    return sha256(hkdf(sha256, this.#ikm, SALT, utf8ToBytes(`shroud/key-check/v${VERSION}`), 32));
  }

  #keyFor(ad: Uint8Array): Uint8Array {
    return hkdf(sha256, this.#ikm, SALT, ad, 32);
  }

  /** Seals `plaintext` as this account's state of `gameId`: JSON text (the export format). */
  seal(gameId: bigint, plaintext: Uint8Array): string {
    return this.#sealBound(bindingBytes(this.scope, gameId, this.player), this.#header(gameId), plaintext);
  }

  /**
   * Opens a blob of `seal`: refused as 'format' (not a blob), 'binding' (the blob names another chain, contract,
   * game or seat: which one, and whose it is) or 'auth' (it does not decrypt: tampered, or sealed by another key).
   */
  open(gameId: bigint, blob: string): Uint8Array {
    const doc = parseBlob(blob, 'player-state');
    const expected: [string, string, string][] = [
      ['chainId', this.scope.chainId.toString(), 'chain'],
      ['contract', this.scope.contract, 'game contract'],
      ['gameId', gameHex(gameId), 'game'],
      ['player', this.player, 'seat address'],
    ];
    const whose = `chain ${doc.chainId}, contract ${doc.contract}, game ${doc.gameId}, player ${doc.player}`;
    return this.#openBound(
      doc,
      'state',
      expected,
      whose,
      bindingBytes(this.scope, gameId, this.player),
      () =>
        `the state of game ${gameHex(gameId)} does not decrypt under ${this.player}'s key: it was altered, or sealed by another wallet`,
    );
  }

  /**
   * Seals an application's own record of this account on this deployment (not a game's player state: another
   * blob type and key, so neither opens as the other). `kind` names the record and is bound to it, e.g. the web
   * page's `web-session/<session address>`: a record copied under another kind, account or deployment fails.
   */
  sealRecord(kind: string, plaintext: Uint8Array): string {
    const header = {
      shroud: 'sealed-record',
      v: VERSION,
      kind,
      chainId: this.scope.chainId.toString(),
      contract: this.scope.contract,
      player: this.player,
    };
    return this.#sealBound(recordBinding(this.scope, kind, this.player), header, plaintext);
  }

  /** Opens a blob of `sealRecord` of `kind`: refused as `open` refuses. */
  openRecord(kind: string, blob: string): Uint8Array {
    const doc = parseBlob(blob, 'sealed-record');
    const expected: [string, string, string][] = [
      ['kind', kind, 'record'],
      ['chainId', this.scope.chainId.toString(), 'chain'],
      ['contract', this.scope.contract, 'game contract'],
      ['player', this.player, 'account'],
    ];
    const whose = `kind ${doc.kind}, chain ${doc.chainId}, contract ${doc.contract}, account ${doc.player}`;
    return this.#openBound(
      doc,
      'record',
      expected,
      whose,
      recordBinding(this.scope, kind, this.player),
      () =>
        `the ${kind} record does not decrypt under ${this.player}'s key: it was altered, or sealed by another wallet`,
    );
  }

  #header(gameId: bigint) {
    return {
      shroud: 'player-state',
      v: VERSION,
      chainId: this.scope.chainId.toString(),
      contract: this.scope.contract,
      gameId: gameHex(gameId),
      player: this.player,
    };
  }

  #sealBound(ad: Uint8Array, header: Record<string, string | number>, plaintext: Uint8Array): string {
    const nonce = randomBytes(24);
    const sealed = xchacha20poly1305(this.#keyFor(ad), nonce, ad).encrypt(plaintext);
    return JSON.stringify({ ...header, nonce: bytesToBase64(nonce), sealed: bytesToBase64(sealed) });
  }

  #openBound(
    doc: Record<string, unknown>,
    what: string,
    expected: [string, string, string][],
    whose: string,
    ad: Uint8Array,
    authMessage: () => string,
  ): Uint8Array {
    for (const [k, want, field] of expected) {
      if (typeof doc[k] !== 'string') throw new VaultError('format', `blob.${k}: must be a string`);
      if (lower(doc[k] as string) !== lower(want))
        throw new VaultError('binding', `this ${what} belongs to ${field} ${doc[k]}, not ${want} (${whose})`);
    }
    if (typeof doc.nonce !== 'string' || typeof doc.sealed !== 'string')
      throw new VaultError('format', 'blob.nonce and blob.sealed must be strings');
    const nonce = fromBase64(doc.nonce, 'blob.nonce');
    if (nonce.length !== 24) throw new VaultError('format', 'blob.nonce: must be 24 bytes');
    try {
      return xchacha20poly1305(this.#keyFor(ad), nonce, ad).decrypt(fromBase64(doc.sealed, 'blob.sealed'));
    } catch {
      throw new VaultError('auth', authMessage());
    }
  }
}

/** What a blob of `sealRecord` says in clear: which record, deployment and account (to pick the key to open it). */
export interface RecordHeader {
  kind: string;
  chainId: bigint;
  contract: string;
  player: string;
}

/** Reads a sealed record's clear header without opening it; a VaultError ('format') when it is not one. */
export function recordHeader(blob: string): RecordHeader {
  const doc = parseBlob(blob, 'sealed-record');
  const field = (k: string) => {
    if (typeof doc[k] !== 'string') throw new VaultError('format', `blob.${k}: must be a string`);
    return doc[k] as string;
  };
  if (!/^\d+$/.test(field('chainId'))) throw new VaultError('format', 'blob.chainId: not a chain id');
  return {
    kind: field('kind'),
    chainId: BigInt(field('chainId')),
    contract: field('contract'),
    player: field('player'),
  };
}

function parseBlob(blob: string, type: 'player-state' | 'sealed-record'): Record<string, unknown> {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(blob);
  } catch {
    throw new VaultError('format', `not a ${type} blob (not JSON)`);
  }
  if (typeof doc !== 'object' || doc === null || doc.shroud !== type)
    throw new VaultError('format', `not a ${type} blob`);
  if (doc.v !== VERSION) throw new VaultError('format', `blob version ${String(doc.v)} is not ${VERSION}`);
  return doc;
}

export interface PlayerVaultOptions {
  signer: VaultSigner;
  chainId: bigint;
  contract: string;
  gameId: bigint;
  store: StateStore;
}

/**
 * One seat's sealed snapshot in a `StateStore`: what a `GamePlayer` saves through (`persist`), and the export and
 * restore of it as text.
 */
export class PlayerVault implements SnapshotStore {
  readonly key: VaultKey;
  readonly gameId: bigint;
  readonly store: StateStore;
  /** The store's id of this seat's state. */
  readonly id: string;

  constructor(key: VaultKey, gameId: bigint, store: StateStore) {
    this.key = key;
    this.gameId = gameId;
    this.store = store;
    this.id = `shroud/player-state/${key.scope.chainId}/${key.scope.contract}/${gameHex(gameId)}/${key.player}`;
  }

  /** Derives the key from the wallet (two signature prompts, or none for a local key) and opens the vault. */
  static async open(o: PlayerVaultOptions): Promise<PlayerVault> {
    const key = await VaultKey.derive(o.signer, { chainId: o.chainId, contract: o.contract });
    return new PlayerVault(key, o.gameId, o.store);
  }

  async load(ruleset: ValidRuleset): Promise<PlayerSnapshot | null> {
    const blob = await this.exportBlob();
    return blob === null ? null : this.#decode(blob, ruleset);
  }

  async save(s: PlayerSnapshot): Promise<void> {
    this.#check(s);
    await this.store.put(this.id, utf8ToBytes(this.key.seal(this.gameId, utf8ToBytes(encodeSnapshot(s)))));
  }

  /** The stored blob as text (the export), after checking it opens; null when nothing is stored. */
  async exportBlob(): Promise<string | null> {
    const bytes = await this.store.get(this.id);
    if (bytes === null) return null;
    const blob = bytesToUtf8(bytes);
    this.key.open(this.gameId, blob);
    return blob;
  }

  /**
   * Restores an exported blob: opened, decoded and checked against `ruleset`, then stored. A different state
   * already stored for this seat is kept and the restore refused (`exists`), unless `replace`.
   */
  async restoreBlob(
    blob: string,
    ruleset: ValidRuleset,
    o: { replace?: boolean } = {},
  ): Promise<PlayerSnapshot> {
    const s = this.#decode(blob.trim(), ruleset);
    const current = await this.store.get(this.id);
    if (current !== null && !o.replace && bytesToUtf8(current) !== blob.trim())
      throw new VaultError(
        'exists',
        `a different state of game ${gameHex(this.gameId)} is already stored (${this.id})`,
      );
    await this.store.put(this.id, utf8ToBytes(blob.trim()));
    return s;
  }

  #decode(blob: string, ruleset: ValidRuleset): PlayerSnapshot {
    const s = decodeSnapshot(bytesToUtf8(this.key.open(this.gameId, blob)), ruleset);
    this.#check(s);
    return s;
  }

  /** A snapshot names the seat it was made for; it must be this vault's. */
  #check(s: PlayerSnapshot): void {
    const k = this.key;
    const same =
      s.chainId === k.scope.chainId &&
      lower(s.contract) === k.scope.contract &&
      s.gameId === this.gameId &&
      lower(s.player) === k.player;
    if (!same)
      throw new VaultError(
        'binding',
        `snapshot of chain ${s.chainId} game ${gameHex(s.gameId)} seat ${s.player} in the vault of chain ${k.scope.chainId} game ${gameHex(this.gameId)} seat ${k.player}`,
      );
  }
}
