/**
 * The newest confirmed block the dealer has seen, shared between the chain watcher (which writes it) and the
 * reveal service (which reads it).
 *
 * Why a shared value rather than a read: the reveal service caches a refused lookup ("no revealCommit for
 * this player and turn") until the chain can have changed, i.e. until a new block. Asking the node for the
 * block number on every request would itself be the chain read per request the cache exists to avoid. The
 * watcher already reads the confirmed head (head − confirmations, the same block `revealCommit` reads at)
 * once per tick, so it publishes it here for free; a refusal is thus re-checked at most once per block and
 * at most `pollMs` after the block that could change it.
 */
export class ChainHead {
  #block = -1;

  /** The last block published; −1 before the first. */
  get block(): number {
    return this.#block;
  }

  /** Publishes the head just read. Any change counts, including a step back after a re-org. */
  set(block: number): void {
    this.#block = block;
  }
}
