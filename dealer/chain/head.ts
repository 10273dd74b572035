/**
 * The newest confirmed block the dealer has seen, and how far its turn index reaches, shared between the
 * chain watcher (which writes them) and the reveal service (which reads them).
 *
 * Why a shared value rather than a read: the reveal service caches a refused lookup ("no play commitment
 * for this player and turn") and the `playCommitment` view's answer (which a combat answer can change) until
 * the chain, or the dealer's index of it, can have changed, i.e. until a new block or more of the index.
 * Asking the node for the block number on every request would itself be the chain read per request the cache
 * exists to avoid. The watcher already reads the confirmed head (head − confirmations, the same block
 * `playCommitment` reads at) once per tick and extends the turn index to it, so it publishes both here for
 * free; a refusal or a view answer is thus re-checked at most once per `epoch` and at most `pollMs` after the
 * block that could change it.
 */
export class ChainHead {
  #block = -1;
  #indexedTo = -1;
  #epoch = 0;

  /** The last block published; −1 before the first. */
  get block(): number {
    return this.#block;
  }

  /** The last block the turn index covers, as last published; −1 before the first. */
  get indexedTo(): number {
    return this.#indexedTo;
  }

  /** Changes whenever the head or the turn index changes: what cached refusals are keyed on. */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Publishes the head just read (and, from the watcher, how far the turn index now reaches). Any change
   * counts, including a step back after a re-org.
   */
  set(block: number, indexedTo = this.#indexedTo): void {
    if (block === this.#block && indexedTo === this.#indexedTo) return;
    this.#block = block;
    this.#indexedTo = indexedTo;
    this.#epoch++;
  }
}
