/**
 * A progress display for long steps: each step shows its elapsed time and an estimate of the rest.
 * On a terminal one live line is redrawn; elsewhere (logs, CI, tests) a line at the start, one every
 * 30 s, and one at the end. The estimate comes from the step's reported fraction when it has one,
 * else from the expected duration it was started with (see circuits/timings.ts).
 */

export interface Step {
  /** Fraction done, 0..1, for steps that can tell. */
  fraction(f: number): void;
  /** Ends the step; returns its duration in ms. */
  done(note?: string): number;
  fail(): void;
}

export interface Progress {
  step(label: string, expectedMs?: number): Step;
  /** A plain line that does not disturb the live step line. */
  line(message: string): void;
}

/** Discards everything (tests, library callers that log elsewhere). */
export const silentProgress: Progress = {
  step: () => ({ fraction() {}, done: () => 0, fail() {} }),
  line() {},
};

export function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** "about 40 s left", from the fraction when known, else from the expected duration. */
export function remaining(elapsedMs: number, fraction: number | undefined, expectedMs?: number): string {
  if (fraction !== undefined && fraction >= 0.03) {
    return `about ${fmtDuration((elapsedMs * (1 - fraction)) / fraction)} left`;
  }
  if (expectedMs === undefined) return 'no estimate yet (first run)';
  if (elapsedMs < expectedMs) return `about ${fmtDuration(expectedMs - elapsedMs)} left`;
  return `longer than the expected ${fmtDuration(expectedMs)}`;
}

export interface ConsoleProgressOptions {
  out?: NodeJS.WriteStream;
  prefix?: string;
  /** Force the plain (line per event) mode even on a terminal. */
  plain?: boolean;
  heartbeatMs?: number;
}

export function consoleProgress(o: ConsoleProgressOptions = {}): Progress {
  const out = o.out ?? process.stdout;
  const live = !o.plain && out.isTTY === true;
  const prefix = o.prefix ?? '· ';
  type Active = { label: string; start: number; fraction?: number; expected?: number; told: number };
  // Steps in flight, oldest first: parallel builds run several at once.
  const active: Active[] = [];
  const heartbeat = o.heartbeatMs ?? 30_000;
  let drawn = false;

  const timing = (a: Active) => {
    const el = Date.now() - a.start;
    return `${fmtDuration(el)} elapsed, ${remaining(el, a.fraction, a.expected)}`;
  };
  const status = (a: Active) => `${prefix}${a.label}: ${timing(a)}`;
  /** The live line (the newest step, and how many others run) fits the terminal by shortening the label. */
  const liveStatus = () => {
    const a = active.at(-1);
    if (!a) return '';
    const t = `${timing(a)}${active.length > 1 ? ` (+${active.length - 1} more)` : ''}`;
    const room = (out.columns ?? 120) - 1 - prefix.length - t.length - 2;
    const label = a.label.length <= room ? a.label : `${a.label.slice(0, Math.max(0, room - 1))}…`;
    return `${prefix}${label}: ${t}`;
  };
  const clear = () => {
    if (drawn) out.write('\r\x1b[2K');
    drawn = false;
  };
  const draw = () => {
    if (!live || active.length === 0) return;
    clear();
    out.write(liveStatus());
    drawn = true;
  };
  // Live: redraw twice a second. Plain: a line every `heartbeat` of each step's own time.
  const timer = setInterval(
    () => {
      if (live) draw();
      else
        for (const a of active)
          if (Date.now() - a.told >= heartbeat) {
            a.told = Date.now();
            out.write(`${status(a)}\n`);
          }
    },
    live ? 500 : 1000,
  );
  timer.unref();

  return {
    line(message) {
      clear();
      out.write(`${message}\n`);
      draw();
    },
    step(label, expectedMs) {
      const now = Date.now();
      const s: Active = { label, start: now, expected: expectedMs, told: now };
      active.push(s);
      if (live) draw();
      else
        out.write(
          `${prefix}${label}…${expectedMs === undefined ? '' : ` (expected about ${fmtDuration(expectedMs)})`}\n`,
        );
      const end = (word: string, note?: string) => {
        const ms = Date.now() - s.start;
        const i = active.indexOf(s);
        if (i >= 0) active.splice(i, 1);
        clear();
        out.write(`${prefix}${label}: ${word} in ${fmtDuration(ms)}${note ? ` (${note})` : ''}\n`);
        draw();
        return ms;
      };
      return {
        fraction(f) {
          s.fraction = f;
        },
        done: (note) => end('done', note),
        fail() {
          end('failed');
        },
      };
    },
  };
}
