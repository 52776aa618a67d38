/**
 * A value shown as data: JSON, never code. A fast-check counterexample can hold a function
 * (`fc.func`), a symbol, `undefined` (shown `[absent]`) or a cycle; `fc.stringify` would print a function's source and
 * `JSON.stringify` would silently drop it. Here each becomes a short marker string, so what a report
 * or the console shows is exactly the data the target was sent, bounded in size and work.
 */

/** Walk at most this deep and this many values: a counterexample is small, a hostile value need not be. */
const MAX_DEPTH = 16;
const MAX_NODES = 5_000;
const MAX_STRING = 10_000;

/**
 * Characters JSON.stringify leaves raw that a terminal or a Markdown renderer acts on: DEL, C1
 * controls (U+009B starts an escape sequence), line separators and the bidirectional controls.
 * Written as `\u` escapes the text stays valid JSON and means the same.
 */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The value as plain JSON-able data: markers for what JSON cannot hold. */
export function toData(value: unknown): unknown {
  let nodes = 0;
  const ancestors = new Set<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES) return '[…]';
    switch (typeof v) {
      case 'string':
        return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…` : v;
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? (Object.is(v, -0) ? '[-0]' : v) : `[${String(v)}]`;
      case 'bigint':
        return `[bigint ${String(v)}]`;
      case 'undefined':
        return '[absent]'; // a generated input left out: JSON's word for it, not JavaScript's
      case 'function':
        return '[function]';
      case 'symbol':
        return '[symbol]';
    }
    if (v === null) return null;
    const obj = v as object;
    if (ancestors.has(obj)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[…]';
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? '[invalid date]' : obj.toISOString();
    ancestors.add(obj);
    try {
      if (Array.isArray(obj)) return obj.map((x) => walk(x, depth + 1));
      if (obj instanceof Map) return { '[Map]': [...obj].map(([k, x]) => [walk(k, depth + 1), walk(x, depth + 1)]) };
      if (obj instanceof Set) return { '[Set]': [...obj].map((x) => walk(x, depth + 1)) };
      const out: Record<string, unknown> = Object.create(null); // an own "__proto__" key stays a key
      for (const key of Object.keys(obj)) {
        let x: unknown;
        try {
          x = (obj as Record<string, unknown>)[key];
        } catch {
          x = '[unreadable]'; // a getter that throws still leaves the rest of the value readable
        }
        out[key] = walk(x, depth + 1);
      }
      return out;
    } finally {
      ancestors.delete(obj);
    }
  };
  return walk(value, 0);
}

/** The value as JSON data (see toData): one line, or indented by `indent` spaces; at most `max` characters (cut with `…`). */
export function dataJson(value: unknown, max = 400, indent = 0): string {
  const s = (JSON.stringify(toData(value), null, indent) ?? 'null').replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
