/**
 * The lobbies' rows as both stores read them, and their one mapping to records. The drivers differ only in
 * how numbers come back (SQLite: numbers; PostgreSQL: BIGINT and NUMERIC as strings) and in the signed
 * createGame (SQLite: JSON text; PostgreSQL: JSONB, already parsed).
 */
import type { SignedCreate } from '../chain/types.ts';
import type { LobbyJoin, LobbyRecord, LobbyStatus } from './types.ts';

type Int = number | string;

export interface LobbyRow {
  lobby_id: string;
  kind: string;
  ruleset: string;
  ruleset_hash: string;
  seats: number;
  stake: string;
  dispute_deposit: string;
  max_turns: Int;
  bond: string;
  status: string;
  opened_at: Int;
  create_tx: string | SignedCreate | null;
  game_id: string | null;
  created_block: Int | null;
  fault: string | null;
  filled: Int;
}

export interface JoinRow {
  lobby_id: string;
  player: string;
  seat: number;
  nonce: string;
  deadline: Int;
  signature: string;
  joined_at: Int;
}

/** A lobby `l` with its filled seat count (the same SQL on both stores). */
export const LOBBY_COLUMNS =
  'SELECT l.*, (SELECT COUNT(*) FROM lobby_joins j WHERE j.lobby_id = l.lobby_id) AS filled';
export const LOBBY_SELECT = `${LOBBY_COLUMNS}
  FROM lobbies l`;

export function toLobby(r: LobbyRow): LobbyRecord {
  return {
    id: r.lobby_id,
    kind: r.kind,
    ruleset: r.ruleset,
    rulesetHash: r.ruleset_hash,
    seats: r.seats,
    stake: BigInt(r.stake),
    disputeDeposit: BigInt(r.dispute_deposit),
    maxTurns: Number(r.max_turns),
    bond: BigInt(r.bond),
    status: r.status as LobbyStatus,
    openedAt: Number(r.opened_at),
    createTx: typeof r.create_tx === 'string' ? (JSON.parse(r.create_tx) as SignedCreate) : r.create_tx,
    gameId: r.game_id === null ? null : BigInt(r.game_id),
    createdBlock: r.created_block === null ? null : Number(r.created_block),
    fault: r.fault,
    filled: Number(r.filled),
  };
}

export const toJoin = (r: JoinRow): LobbyJoin => ({
  lobbyId: r.lobby_id,
  player: r.player,
  seat: r.seat,
  nonce: r.nonce,
  deadline: Number(r.deadline),
  signature: r.signature,
  joinedAt: Number(r.joined_at),
});
