/**
 * The reference's JSON text of a response body: JSON.stringify's, with the text of each frozen object
 * kept and used again. A route that makes a record once and freezes it (a file of a container, as
 * this reference serves it) has it written once, however many pages of however many requests list it:
 * a default run lists the same files hundreds of times over (different page sizes and cursors).
 *
 * What is not frozen is written as JSON.stringify writes it, key by key: a plain object's own
 * enumerable keys in order, undefined and functions left out (in an array, written as null); any other
 * value (a string, a number, a Date, a Buffer) by JSON.stringify itself.
 */
import type { ReferenceOptions } from './options.ts';

const kept = new WeakMap<object, string>();

export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Object.isFrozen(value)) {
    let text = kept.get(value);
    if (text === undefined) kept.set(value, (text = JSON.stringify(value)));
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (omitted(v) ? 'null' : jsonText(v))).join(',')}]`;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return JSON.stringify(value);
  const members: string[] = [];
  for (const [k, v] of Object.entries(value)) if (!omitted(v)) members.push(`${JSON.stringify(k)}:${jsonText(v)}`);
  return `{${members.join(',')}}`;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * A route's records as one reference (its options) serves them, each made once and frozen, so that
 * jsonText writes it once however many pages list it: a record per key object (a stored file, an
 * intern) within a scope its text depends on too (the container id a file is listed under).
 */
export function servedOnce<K extends object>(): (
  opts: ReferenceOptions,
  scope: string,
  key: K,
  make: () => object,
) => unknown {
  const served = new WeakMap<ReferenceOptions, Map<string, WeakMap<K, unknown>>>();
  return (opts, scope, key, make) => {
    let scopes = served.get(opts);
    if (!scopes) served.set(opts, (scopes = new Map()));
    let records = scopes.get(scope);
    if (!records) scopes.set(scope, (records = new WeakMap()));
    let record = records.get(key);
    if (record === undefined) records.set(key, (record = Object.freeze(make())));
    return record;
  };
}
