import type { SecretBox } from './secret-box.ts';
import type { DealSecrets } from './types.ts';

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
