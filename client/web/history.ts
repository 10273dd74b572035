/**
 * The page's own turns, and the fog it draws from them. A turn whose tiles were not served (a lying or absent
 * dealer) has moved the units on-chain, and the SDK's model already counts its vision; the page keeps drawing the
 * fog of the turn before until a verified batch arrives, so a rejected batch changes nothing on screen.
 */
import type { Slots } from '@shroud/core/state.ts';

/** One own spawn or turn as the page applied it: what a reload, or a test's replay, needs. */
export interface OwnTurn {
  kind: 'spawn' | 'turn';
  turn: number;
  units: Slots;
  unserved: boolean;
  /** The model's fog right after it, row-major digits (0 undiscovered, 1 visible, 2 explored). */
  fog: string;
}

/**
 * The fog to draw, as digits: the model's (`live`), unless own turn `unservedTurn` still waits for its tiles;
 * then the fog after the own turn before it (all undiscovered before the spawn).
 */
export function drawnFog(history: readonly OwnTurn[], live: string, unservedTurn: number | null): string {
  if (unservedTurn === null) return live;
  const before = history.filter((h) => h.turn < unservedTurn).at(-1);
  return before?.fog ?? '0'.repeat(live.length);
}

/** Checks a history read back from storage (a sealed record: authentic, but maybe of an older page). */
export function parseHistory(v: unknown): OwnTurn[] {
  if (!Array.isArray(v)) throw new Error('history: not a list');
  return v.map((h, i) => {
    const ok =
      h &&
      (h.kind === 'spawn' || h.kind === 'turn') &&
      Number.isInteger(h.turn) &&
      Array.isArray(h.units) &&
      typeof h.unserved === 'boolean' &&
      typeof h.fog === 'string' &&
      /^[012]*$/.test(h.fog);
    if (!ok) throw new Error(`history.${i}: not an own turn`);
    return h as OwnTurn;
  });
}
