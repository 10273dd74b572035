/**
 * Tiny strict validators for data a viewer loads from a file: each names the offending path
 * (`replay.turns.3.attacks.0.outcome`) and throws a TypeError, so nothing is drawn from a bad replay.
 */

export type Obj = Record<string, unknown>;

export function fail(path: string, message: string): never {
  throw new TypeError(`${path}: ${message}`);
}

/** An object with every `required` key, and no key outside `required` and `optional`. */
export function shape(
  path: string,
  v: unknown,
  required: readonly string[],
  optional: readonly string[] = [],
) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  const o = v as Obj;
  for (const k of required) if (!(k in o)) fail(`${path}.${k}`, 'is missing');
  for (const k of Object.keys(o))
    if (!required.includes(k) && !optional.includes(k)) fail(`${path}.${k}`, 'is not a field of this format');
  return o;
}

export function array(path: string, v: unknown, max = Number.MAX_SAFE_INTEGER): unknown[] {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  if (v.length > max) fail(path, `more than ${max} entries`);
  return v;
}

export function int(path: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    fail(path, `must be an integer in ${min}..${max}, got ${JSON.stringify(v)}`);
  return v;
}

export function str(path: string, v: unknown, maxLength: number): string {
  if (typeof v !== 'string') fail(path, 'must be a string');
  if (v.length > maxLength) fail(path, `longer than ${maxLength} characters`);
  return v;
}

export function oneOf<T extends string>(path: string, v: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(v as T)) fail(path, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

export function bool(path: string, v: unknown): boolean {
  if (typeof v !== 'boolean') fail(path, 'must be true or false');
  return v;
}
