/**
 * What names a record in a finding beside its position: the value found and the record's identifying
 * field (a container file's path or id, an intern's id, an endpoint's name or provider_name), so a
 * reader finds the record in the target's data without counting to its position.
 * Both are shown bounded (suites/support/values.ts shown): the target's bytes are hostile (rule "Hostile input").
 */
import { isObject, shown } from '../support/values.ts';

/** The identifying fields a record of 2.1, 2.4 or 2.5 may carry, the most telling first. */
const NAMING_FIELDS = ['path', 'id', 'name', 'provider_name'] as const;

/** `path "a/b.txt"`: the record's first identifying field that is a string, or '' when it has none. */
export function recordLabel(record: unknown): string {
  if (!isObject(record)) return '';
  for (const field of NAMING_FIELDS) {
    const v = record[field];
    if (typeof v === 'string') return `${field} ${shown(v)}`;
  }
  return '';
}

/** Walk at most this many pointer steps: a schema pointer into a response is shallow. */
const MAX_STEPS = 32;

/** The value at a JSON pointer of `body` (`/data/44/source`), undefined when nothing is there. */
export function valueAt(body: unknown, pointer: string): unknown {
  const steps = pointer.split('/').slice(1, MAX_STEPS + 1);
  let at: unknown = body;
  for (const raw of steps) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = /^\d+$/.test(step) ? at[Number(step)] : undefined;
    else if (isObject(at)) at = Object.hasOwn(at, step) ? at[step] : undefined;
    else return undefined;
  }
  return at;
}

/** The pointer of the record a pointer sits in (`/data/44` of `/data/44/source`), or undefined. */
export function recordPointer(pointer: string): string | undefined {
  return /^(\/[^/]+\/\d+)(?=\/|$)/.exec(pointer)?.[1];
}

/** `, found "user" (path "a.txt")`: what a schema finding adds to name the value and its record. */
export function foundAt(body: unknown, pointer: string): string {
  const record = recordPointer(pointer);
  const label = record === undefined ? '' : recordLabel(valueAt(body, record));
  return `, found ${shown(valueAt(body, pointer))}${label ? ` (${label})` : ''}`;
}
