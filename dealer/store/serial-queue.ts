/**
 * Tasks run one at a time, in call order; a task that fails does not stop the next. The lobby stores put their
 * joins through one (dealer/store/types.ts `joinLobby`): on SQLite it is the whole serialization, on PostgreSQL it
 * keeps a process to one pool connection waiting on the join lock, so a burst of joins cannot take the pool.
 */
export class SerialQueue {
  #last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const done = this.#last.then(task, task);
    this.#last = done.catch(() => {});
    return done;
  }
}
