/**
 * The game's session key at rest: a `SessionRecord` sealed under a key the wallet derives (the SDK vault's
 * `sealRecord`: HKDF over the wallet's signature of a fixed text, XChaCha20-Poly1305, bound to the chain, the
 * contract, the wallet and the session's address), kept in a `StateStore` (IndexedDB in the page), on every chain.
 * An index per wallet and chain, in clear, lists the sessions (their addresses and games are public on-chain
 * anyway) so a reload finds the unfinished one before asking the wallet for anything.
 */
import { DURATION_FIELDS, type Durations } from '@shroud/core/limits.ts';
import type { StateStore } from '@shroud/sdk';
import { type RecordHeader, recordHeader, type VaultKey } from '@shroud/sdk';
import { computeAddress } from 'ethers';
import { type OwnTurn, parseHistory } from './history.ts';

/** The lobby a session was funded for: enough to join it again after a reload. */
export interface SessionLobby {
  id: string;
  kind: string;
  stake: bigint;
  maxTurns: number;
  gameContract: string;
  /** The game's dispute deposit (a zone challenge of the audit pays it too); 0 in records saved before it. */
  disputeDeposit: bigint;
  /** The windows the listing showed: the join's floors (absent in records saved before them). */
  durations?: Durations;
  /**
   * What else the person picked (absent in records saved before them): a game is held to these, not to the
   * dealer's later word, when no join of this page signed the lobby's view (a seat taken up on a retry or reload).
   */
  pinned?: { rulesetHash: string; seats: number; bond: bigint; dealer: string };
}

export interface SessionRecord {
  version: 2;
  /** The session key (0x-hex secret). */
  key: string;
  /** The wallet that funded it, where its funds go back. */
  owner: string;
  chainId: bigint;
  gameContract: string;
  lobby: SessionLobby | null;
  gameId: bigint | null;
  /** Wei the wallet sent (0 until the funding transfer landed). */
  funded: bigint;
  /** The game left play and the funds went back; kept until the stake's credit is withdrawn too. */
  over: boolean;
  /** The page's own turns (the fog it drew after each). */
  history: OwnTurn[];
  /** The person clicked Leave before the lobby gave a game: a reload finishes the leave, it never joins again. */
  leaving?: true;
}

/** One session in a wallet's index: where its record is and what it is for. */
export interface SessionEntry {
  address: string;
  contract: string;
  gameId: string | null;
  over: boolean;
}

/** A record that does not parse, or is not the wallet's: nothing was stored. */
export class SessionRecordError extends Error {
  override name = 'SessionRecordError';
}

const lower = (s: string) => s.toLowerCase();
const enc = new TextEncoder();
const dec = new TextDecoder();

/** The address of a session key. */
export const sessionAddress = (key: string) => lower(computeAddress(key));

/** The vault record kind of a session: binds the sealed blob to the session's own address. */
const recordKind = (address: string) => `web-session/${lower(address)}`;

function toJson(r: SessionRecord): string {
  return JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function parseRecord(text: string): SessionRecord {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    throw new SessionRecordError('session record: not JSON');
  }
  const str = (k: string) => {
    if (typeof o[k] !== 'string') throw new SessionRecordError(`session record: ${k} must be a string`);
    return o[k] as string;
  };
  const uint = (k: string, v: unknown = o[k]) => {
    if (typeof v !== 'string' || !/^\d+$/.test(v))
      throw new SessionRecordError(`session record: ${k} must be a whole number`);
    return BigInt(v);
  };
  if (o.version !== 2) throw new SessionRecordError(`session record: version ${String(o.version)} is not 2`);
  const key = str('key');
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new SessionRecordError('session record: key is not a secret key');
  const l = o.lobby as Record<string, unknown> | null;
  let lobby: SessionLobby | null = null;
  if (l !== null) {
    if (typeof l !== 'object' || typeof l.id !== 'string' || typeof l.kind !== 'string')
      throw new SessionRecordError('session record: lobby is malformed');
    if (!Number.isInteger(l.maxTurns) || typeof l.gameContract !== 'string')
      throw new SessionRecordError('session record: lobby is malformed');
    lobby = {
      id: l.id,
      kind: l.kind,
      stake: uint('lobby.stake', l.stake),
      maxTurns: l.maxTurns as number,
      gameContract: l.gameContract,
      disputeDeposit: l.disputeDeposit === undefined ? 0n : uint('lobby.disputeDeposit', l.disputeDeposit),
    };
    if (l.pinned !== undefined) {
      const p = l.pinned as Record<string, unknown> | null;
      if (
        typeof p !== 'object' ||
        p === null ||
        typeof p.rulesetHash !== 'string' ||
        !/^0x[0-9a-fA-F]{64}$/.test(p.rulesetHash) ||
        !Number.isSafeInteger(p.seats) ||
        typeof p.dealer !== 'string' ||
        !/^0x[0-9a-fA-F]{40}$/.test(p.dealer)
      )
        throw new SessionRecordError('session record: lobby.pinned is malformed');
      lobby.pinned = {
        rulesetHash: p.rulesetHash,
        seats: p.seats as number,
        bond: uint('lobby.pinned.bond', p.bond),
        dealer: p.dealer,
      };
    }
    if (l.durations !== undefined) {
      const d = l.durations as Record<string, unknown> | null;
      if (typeof d !== 'object' || d === null || !DURATION_FIELDS.every((f) => Number.isSafeInteger(d[f])))
        throw new SessionRecordError('session record: lobby.durations is malformed');
      lobby.durations = Object.fromEntries(DURATION_FIELDS.map((f) => [f, d[f]])) as unknown as Durations;
    }
  }
  let history: OwnTurn[];
  try {
    history = parseHistory(o.history);
  } catch (e) {
    throw new SessionRecordError(`session record: ${(e as Error).message}`);
  }
  if (typeof o.over !== 'boolean') throw new SessionRecordError('session record: over must be a boolean');
  if (o.leaving !== undefined && o.leaving !== true)
    throw new SessionRecordError('session record: leaving must be true when present');
  return {
    version: 2,
    key,
    owner: str('owner'),
    chainId: uint('chainId'),
    gameContract: str('gameContract'),
    lobby,
    gameId: o.gameId === null ? null : uint('gameId'),
    funded: uint('funded'),
    over: o.over,
    history,
    ...(o.leaving === true ? { leaving: true as const } : {}),
  };
}

export class SessionStore {
  readonly store: StateStore;

  constructor(store: StateStore) {
    this.store = store;
  }

  #indexId = (owner: string, chainId: bigint) => `shroud/web-sessions/v1/${chainId}/${lower(owner)}`;
  #recordId = (owner: string, chainId: bigint, address: string) =>
    `shroud/web-session/v1/${chainId}/${lower(owner)}/${lower(address)}`;

  /** The wallet's sessions on `chainId`, oldest first. */
  async entries(owner: string, chainId: bigint): Promise<SessionEntry[]> {
    const bytes = await this.store.get(this.#indexId(owner, chainId));
    if (!bytes) return [];
    try {
      const list = JSON.parse(dec.decode(bytes)) as SessionEntry[];
      if (!Array.isArray(list)) throw new Error('not a list');
      return list.filter((e) => typeof e?.address === 'string' && typeof e?.contract === 'string');
    } catch {
      // The index holds nothing secret and is rebuilt by the next save; a damaged one hides no funds' key
      // from an export, which reads the records themselves.
      return [];
    }
  }

  /** Seals and stores `r` under `key` (the owner's, on r's chain and contract), then indexes it. */
  async save(key: VaultKey, r: SessionRecord): Promise<void> {
    this.#own(key, r);
    const address = sessionAddress(r.key);
    const blob = key.sealRecord(recordKind(address), enc.encode(toJson(r)));
    // The record before the index: an index entry never points at a record that is not there.
    await this.store.put(this.#recordId(r.owner, r.chainId, address), enc.encode(blob));
    const entry: SessionEntry = {
      address,
      contract: lower(r.gameContract),
      gameId: r.gameId?.toString() ?? null,
      over: r.over,
    };
    const list = (await this.entries(r.owner, r.chainId)).filter((e) => e.address !== address);
    await this.store.put(this.#indexId(r.owner, r.chainId), enc.encode(JSON.stringify([...list, entry])));
  }

  /** The sealed blob of a session, as stored (the export's half that only the wallet opens). */
  async blob(owner: string, chainId: bigint, address: string): Promise<string | null> {
    const bytes = await this.store.get(this.#recordId(owner, chainId, address));
    return bytes ? dec.decode(bytes) : null;
  }

  /** Opens session `address` of `key`'s wallet. */
  async load(key: VaultKey, address: string): Promise<SessionRecord> {
    const blob = await this.blob(key.player, key.scope.chainId, address);
    if (blob === null) throw new SessionRecordError(`no saved session ${address} for ${key.player}`);
    return this.open(key, blob);
  }

  /** Opens a sealed session blob (a stored one, or an export's) and checks it is `key`'s wallet's. */
  open(key: VaultKey, blob: string): SessionRecord {
    const h = recordHeader(blob);
    const address = h.kind.startsWith('web-session/') ? h.kind.slice('web-session/'.length) : '';
    const r = parseRecord(dec.decode(key.openRecord(recordKind(address), blob)));
    if (sessionAddress(r.key) !== lower(address))
      throw new SessionRecordError(`session record: its key is not session ${address}'s`);
    this.#own(key, r);
    return r;
  }

  async remove(owner: string, chainId: bigint, address: string): Promise<void> {
    const list = (await this.entries(owner, chainId)).filter((e) => e.address !== lower(address));
    await this.store.put(this.#indexId(owner, chainId), enc.encode(JSON.stringify(list)));
    await this.store.delete(this.#recordId(owner, chainId, address));
  }

  #own(key: VaultKey, r: SessionRecord): void {
    const same =
      lower(r.owner) === key.player &&
      r.chainId === key.scope.chainId &&
      lower(r.gameContract) === key.scope.contract;
    if (!same)
      throw new SessionRecordError(
        `session of ${r.owner} on chain ${r.chainId}, contract ${r.gameContract} is not for ${key.player} on chain ${key.scope.chainId}, contract ${key.scope.contract}`,
      );
  }
}

/** The clear header of a sealed session blob: whose it is and on which deployment (to derive the key). */
export function sessionHeader(blob: string): RecordHeader & { address: string } {
  const h = recordHeader(blob);
  if (!h.kind.startsWith('web-session/'))
    throw new SessionRecordError(`a ${h.kind} record, not a game session`);
  return { ...h, address: h.kind.slice('web-session/'.length) };
}
