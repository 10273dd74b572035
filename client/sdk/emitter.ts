/** A minimal typed event emitter: browser-safe (no node:events), synchronous, in subscription order. */
export class Emitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => this.off(type, listener);
  }

  off<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): void {
    this.#listeners.get(type)?.delete(listener as (payload: never) => void);
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    // Copy first: a listener may unsubscribe itself while we iterate.
    for (const l of [...(this.#listeners.get(type) ?? [])]) (l as (p: Events[K]) => void)(payload);
  }
}
