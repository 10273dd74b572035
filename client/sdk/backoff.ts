/** Exponential backoff with full jitter: attempt k ≥ 2 waits a uniform draw below base·2^(k−2), capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  return random() * Math.min(maxMs, baseMs * 2 ** (attempt - 2));
}

export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `once` until it succeeds or fails with an error `transient` does not accept, at most `maxAttempts` times. */
export async function withRetries<T>(
  once: () => Promise<T>,
  transient: (e: unknown) => boolean,
  o: RetryOptions,
): Promise<{ value: T } | { error: unknown; attempts: number }> {
  let last: unknown;
  for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
    if (attempt > 1) await o.sleep(backoffDelay(attempt, o.baseDelayMs, o.maxDelayMs, o.random));
    try {
      return { value: await once() };
    } catch (e) {
      if (!transient(e)) throw e;
      last = e;
    }
  }
  return { error: last, attempts: o.maxAttempts };
}
