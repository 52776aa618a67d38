/** Small value helpers shared by the checks. */

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON type name of a field, with `absent` for a missing key and `integer` split from `number`. */
export function jsonType(holder: Record<string, unknown>, key: string): string {
  if (!(key in holder) || holder[key] === undefined) return 'absent';
  const v = holder[key];
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Increments counts[key]. */
export function tally(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** A value shortened for an observation (long strings and big objects would swamp the report). */
export function brief(v: unknown, max = 80): unknown {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}…` : v;
}

/** Section 2.3 / 2.5: `<author>/<slug>`, two non-empty parts and exactly one slash (as spec/openapi.yaml). */
export const AUTHOR_SLUG = /^[^/]+\/[^/]+$/;

/**
 * A value as a message shows it: JSON, at most `max` characters, and `absent` for a field the
 * target left out (JSON has no `undefined`: a message saying it would speak of the suite, not the target).
 */
export function shown(v: unknown, max = 80): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
