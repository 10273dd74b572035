import { utf8ToBytes } from '@noble/hashes/utils.js';
import { keccak256 } from '../keccak.ts';
import type { Ruleset } from './types.ts';

/** JSON with object keys sorted at every depth, so equal rulesets serialize to equal bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && k !== '$schema' && k !== 'board')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `rulesetHash` stored on-chain per game: keccak256 of the canonical JSON (derived `board` and `$schema` left out). */
export function rulesetHash(r: Ruleset): string {
  return keccak256(utf8ToBytes(canonicalJson(r)));
}
