/** Why a dealer's reveal response was refused. The whole response is refused, never part of it. */
export type TileRejectReason =
  | 'not-requested'
  | 'duplicate'
  | 'missing'
  | 'wrong-coord'
  | 'malformed'
  | 'bad-path';

/** A served tile failed a check against the player's request or the on-chain root (P3). */
export class TileRejectedError extends Error {
  readonly reason: TileRejectReason;
  /** The zone-major leaf index at fault; null when the response itself has the wrong shape. */
  readonly leaf: number | null;
  constructor(reason: TileRejectReason, leaf: number | null, message: string) {
    super(`tile ${leaf ?? '?'} rejected (${reason}): ${message}`);
    this.name = 'TileRejectedError';
    this.reason = reason;
    this.leaf = leaf;
  }
}

/** The dealer's error body, `{statusCode, error, message, field?}` (dealer/errors.ts). */
export interface DealerErrorBody {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
}

/** The dealer answered with a 4xx: retrying the same request cannot help, so the client surfaces it. */
export class DealerRefusedError extends Error {
  readonly status: number;
  /** The dealer's stable error code (e.g. `opening-mismatch`), or `unknown` when the body was not JSON. */
  readonly code: string;
  readonly field: string | undefined;
  readonly body: DealerErrorBody | string;
  constructor(status: number, body: DealerErrorBody | string) {
    const detail = typeof body === 'string' ? body.slice(0, 200) : `${body.error}: ${body.message}`;
    super(`dealer refused the request (HTTP ${status}) ${detail}`);
    this.name = 'DealerRefusedError';
    this.status = status;
    this.code = typeof body === 'string' ? 'unknown' : body.error;
    this.field = typeof body === 'string' ? undefined : body.field;
    this.body = body;
  }
}

/** Network errors, timeouts, 5xx or 429 on every attempt: the dealer may be down (P7's force-open path). */
export class DealerUnavailableError extends Error {
  readonly attempts: number;
  /** HTTP status of the last attempt, or null when it never got an answer. */
  readonly lastStatus: number | null;
  constructor(attempts: number, lastStatus: number | null, cause: unknown) {
    const why = lastStatus !== null ? `HTTP ${lastStatus}` : String((cause as Error)?.message ?? cause);
    super(`dealer unavailable after ${attempts} attempts (last: ${why})`, { cause });
    this.name = 'DealerUnavailableError';
    this.attempts = attempts;
    this.lastStatus = lastStatus;
  }
}

/** Why a dealer's zone roots were refused. */
export type ZoneRootsRejectReason = 'bad-root';

/**
 * The zone roots a dealer posted with its root do not hash to it: no passability proof can open that root.
 * The SDK proves so on-chain before throwing (the dealer is slashed and the game force-opened).
 */
export class ZoneRootsRejectedError extends Error {
  readonly reason: ZoneRootsRejectReason;
  constructor(reason: ZoneRootsRejectReason, message: string) {
    super(`zone roots rejected (${reason}): ${message}`);
    this.name = 'ZoneRootsRejectedError';
    this.reason = reason;
  }
}

/**
 * A game's on-chain terms are outside what this player accepts (durations outside the protocol's floors or
 * the player's own, a seal key that is not a Baby Jubjub subgroup point, a stake or deposit above the
 * player's limit, another ruleset). Raised before any stake is paid: nothing was sent.
 */
export class GameTermsRejectedError extends Error {
  /** The offending term, dotted (e.g. `durations.auditSeconds`, `sealKey`, `stake`). */
  readonly field: string;
  constructor(field: string, message: string) {
    super(`game terms rejected: ${field}: ${message}`);
    this.name = 'GameTermsRejectedError';
    this.field = field;
  }
}

/** One host's failed attempt at an artifact. */
export interface ArtifactAttempt {
  url: string;
  /** `HTTP 404`, a network error's message, `timeout`, or `SHA-256 0x…` for a file with the wrong hash. */
  reason: string;
}

/**
 * A downloaded proving artifact is not the one the chain registered for the circuit's verifier: its SHA-256
 * differs from `VerifierRegistry.artifactsOf(verifier)`. The file was dropped, never cached nor used.
 */
export class ArtifactMismatchError extends Error {
  readonly circuit: string;
  readonly kind: 'zkey' | 'wasm';
  readonly url: string;
  /** The registered SHA-256 (0x-hex). */
  readonly expected: string;
  /** The served file's SHA-256 (0x-hex). */
  readonly got: string;
  constructor(o: { circuit: string; kind: 'zkey' | 'wasm'; url: string; expected: string; got: string }) {
    super(`${o.circuit} ${o.kind} from ${o.url} has SHA-256 ${o.got}, the chain registered ${o.expected}`);
    this.name = 'ArtifactMismatchError';
    this.circuit = o.circuit;
    this.kind = o.kind;
    this.url = o.url;
    this.expected = o.expected;
    this.got = o.got;
  }
}

/**
 * The chain names no artifacts for the circuit: no verifier is registered for it, or its verifier has zero
 * hashes (a deployment older than `registerArtifacts`). Nothing can be checked, so nothing is downloaded.
 */
export class ArtifactsNotRegisteredError extends Error {
  readonly circuit: string;
  /** The verifier contract (the zero address when the ruleset has no verifier for the circuit). */
  readonly verifier: string;
  constructor(circuit: string, verifier: string) {
    super(
      /^0x0{40}$/.test(verifier)
        ? `${circuit}: no verifier registered for this ruleset`
        : `${circuit}: verifier ${verifier} has no artifact hashes registered`,
    );
    this.name = 'ArtifactsNotRegisteredError';
    this.circuit = circuit;
    this.verifier = verifier;
  }
}

/** No host served the artifact (every base URL failed: unreachable, 4xx/5xx, timeout, too large). */
export class ArtifactUnavailableError extends Error {
  readonly circuit: string;
  readonly kind: 'zkey' | 'wasm';
  readonly hash: string;
  readonly attempts: ArtifactAttempt[];
  constructor(circuit: string, kind: 'zkey' | 'wasm', hash: string, attempts: ArtifactAttempt[]) {
    const tried = attempts.map((a) => `${a.url}: ${a.reason}`).join('; ');
    super(`${circuit} ${kind} ${hash}: no host served it (${tried || 'no base URL'})`);
    this.name = 'ArtifactUnavailableError';
    this.circuit = circuit;
    this.kind = kind;
    this.hash = hash;
    this.attempts = attempts;
  }
}

/**
 * A lobby's terms are outside what this player accepts (a stake above its limit, another ruleset or seat
 * count, durations below its floors, a dealer on another chain or contract). Raised before signing: nothing
 * was sent.
 */
export class LobbyTermsRejectedError extends Error {
  /** The offending term, dotted (e.g. `stake`, `durations.turnSeconds`, `gameContract`). */
  readonly field: string;
  constructor(field: string, message: string) {
    super(`lobby terms rejected: ${field}: ${message}`);
    this.name = 'LobbyTermsRejectedError';
    this.field = field;
  }
}

/**
 * The map proof could not be checked here: a local failure (the verifier's worker died twice, its curve did not
 * load), not the dealer's. Not a refusal: `GamePlayer.checkMapProof` passes it on as it is, and the bot's loop
 * tries again at its next poll (review 35).
 */
export class MapProofUncheckedError extends Error {
  /** Why, without the prefix (`new MapProofUncheckedError(reason)` rebuilds it: a worker's reply). */
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`map proof not checked: ${reason}`, options);
    this.name = 'MapProofUncheckedError';
    this.reason = reason;
  }
}

/**
 * Runs a map-proof verifier: whatever the dealer's proof makes it throw (a malformed point, a missing field) is a
 * refusal of that proof, a MapProofError, never an error the caller would take for a transient one and poll again
 * (review 32). A MapProofError the verifier threw is kept as it is (it names the zone), and so is a
 * MapProofUncheckedError: the verifier says it could not run (a local failure), which blames no one (review 35).
 */
export async function refusingUnverified(verify: () => Promise<void>): Promise<void> {
  try {
    await verify();
  } catch (e) {
    if (e instanceof MapProofError || e instanceof MapProofUncheckedError) throw e;
    throw new MapProofError(null, `does not verify (${(e as Error)?.message ?? e})`);
  }
}

/** The lobby filled but the dealer could not create its game (the chain refused createGame). */
export class LobbyGameFailedError extends Error {
  readonly lobbyId: string;
  constructor(lobbyId: string, message: string) {
    super(`lobby ${lobbyId}: ${message}`);
    this.name = 'LobbyGameFailedError';
    this.lobbyId = lobbyId;
  }
}

/** Why a map proof was refused: the map on-chain is not shown to be Gen(seed) for the ceremony's seed. */
export class MapProofError extends Error {
  /** The zone whose chunk proof is at fault; null for the root proof or the response as a whole. */
  readonly zone: number | null;
  /** What is wrong, without the zone prefix (`new MapProofError(zone, reason)` rebuilds it: a worker's reply). */
  readonly reason: string;
  constructor(zone: number | null, reason: string) {
    super(zone === null ? `map proof: ${reason}` : `map proof, zone ${zone}: ${reason}`);
    this.name = 'MapProofError';
    this.zone = zone;
    this.reason = reason;
  }
}
