import type { SealedShare } from '../../core/sealed.ts';
import type { SecretBox } from './secret-box.ts';
import type { DealSecrets, ServedReveal } from './types.ts';

/**
 * One game's secrets as the text every backend stores: JSON sealed with the at-rest key. The
 * associated data names the game, so a row copied to another game id fails to open.
 */
const aad = (gameId: bigint): string => `shroud-dealer/game-secrets/v1/${gameId}`;

export function sealSecrets(box: SecretBox, gameId: bigint, s: DealSecrets): string {
  const plain = JSON.stringify({
    shares: s.shares.map(String),
    seed: s.seed.toString(),
    masterSecret: s.masterSecret.toString(),
  });
  return box.seal(plain, aad(gameId));
}

/** Throws under a wrong key or on a tampered or moved row: the dealer must not deal from it. */
export function openSecrets(box: SecretBox, gameId: bigint, sealed: string): DealSecrets {
  const j = JSON.parse(box.open(sealed, aad(gameId))) as {
    shares: string[];
    seed: string;
    masterSecret: string;
  };
  return {
    shares: j.shares.map((s) => BigInt(s)),
    seed: BigInt(j.seed),
    masterSecret: BigInt(j.masterSecret),
  };
}

/**
 * A served reveal's opening (leaves and blinding: where the player's units saw, P6) as the text every
 * backend stores: JSON sealed with the at-rest key. The associated data names the game, the player and the
 * turn, so a row moved to another key fails to open.
 */
const openingAad = (gameId: bigint, player: string, turn: number): string =>
  `shroud-dealer/served-reveal/v1/${gameId}/${player}/${turn}`;

export function sealOpening(box: SecretBox, r: ServedReveal): string {
  const plain = JSON.stringify({ leaves: r.leaves, blinding: r.blinding.toString() });
  return box.seal(plain, openingAad(r.gameId, r.player, r.turn));
}

/** Throws under a wrong key or on a tampered or moved row. */
export function openOpening(
  box: SecretBox,
  gameId: bigint,
  player: string,
  turn: number,
  sealed: string,
): ServedReveal {
  const j = JSON.parse(box.open(sealed, openingAad(gameId, player, turn))) as {
    leaves: number[];
    blinding: string;
  };
  return { gameId, player, turn, leaves: j.leaves, blinding: BigInt(j.blinding) };
}

/** A sealed share (E.y, c) as stored: 32 big-endian bytes each (public data, as in the event). */
export function encodeSealedShare(s: SealedShare): Uint8Array {
  const out = new Uint8Array(64);
  [s.ephemeralY, s.ciphertext].forEach((v, i) => {
    if (v < 0n || v >= 1n << 256n) throw new RangeError('sealed share word exceeds 32 bytes');
    out.set(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'), 32 * i);
  });
  return out;
}

export function decodeSealedShare(b: Uint8Array): SealedShare {
  // Rows from before sealed shares were Baby Jubjub (ECIES blobs) have another length.
  if (b.length !== 64) throw new Error(`stored sealed share has ${b.length} bytes, not 64 (an old format?)`);
  const word = (i: number) => BigInt(`0x${Buffer.from(b.subarray(32 * i, 32 * i + 32)).toString('hex')}`);
  return { ephemeralY: word(0), ciphertext: word(1) };
}
