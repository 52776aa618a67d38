import { createHash } from 'node:crypto';

/**
 * What a pure function gave for a long text, kept for the next time the same text comes: a run
 * receives the same body many times (the same page asked by several checks), and a Map finds it in
 * one native lookup instead of another pass over it. What it keeps is bounded in total, so a hostile
 * target's bodies cannot grow it (rule "Hostile input"): each entry counts its text's length against
 * `maxChars` (the value, a masked text or a few findings, is no larger), the oldest entries give way
 * to a new one, and a text longer than `maxEntryChars` (a cursor of megabytes) is keyed by its
 * SHA-256 rather than held as a key. Texts shorter than `minChars` are computed every time, never
 * kept; a memo that keeps short texts (the mask's: a run's few hundred distinct header names and
 * values come thousands of times) is bounded in entries too (`maxEntries`), as each one costs a Map
 * entry beside its characters.
 */
export class TextMemo<V> {
  private readonly known = new Map<string, { value: V; chars: number }>();
  private chars = 0;

  constructor(
    private readonly minChars = 512,
    private readonly maxChars = 8 * 1024 * 1024,
    private readonly maxEntryChars = 1024 * 1024,
    private readonly maxEntries = 65_536,
  ) {}

  of(text: string, compute: (text: string) => V): V {
    if (text.length < this.minChars || text.length > this.maxChars) return compute(text);
    const key = text.length > this.maxEntryChars ? digestKey(text) : text;
    const known = this.known.get(key);
    if (known) return known.value;
    const value = compute(text);
    // The oldest entries give way: a run's bodies come in waves (a page, its next pages, the next check's).
    for (const [oldKey, old] of this.known) {
      if (this.chars + text.length <= this.maxChars && this.known.size < this.maxEntries) break;
      this.known.delete(oldKey);
      this.chars -= old.chars;
    }
    this.known.set(key, { value, chars: text.length });
    this.chars += text.length;
    return value;
  }

  clear(): void {
    this.known.clear();
    this.chars = 0;
  }
}

/**
 * `compute` remembered for the last `size` texts it was given: for values of any length met in turn
 * (a body the run's memos read one after another, a cursor of megabytes compared page after page),
 * where keeping many would hold too much. Comparing a text with one kept is a pointer check for the
 * same string, at most one pass for an equal one; a text of another length is passed over at once.
 */
export function recentMemo<V>(compute: (text: string) => V, size: number): (text: string) => V {
  const recent: Array<{ text: string; value: V }> = [];
  return (text) => {
    for (const r of recent) if (r.text.length === text.length && r.text === text) return r.value;
    const value = compute(text);
    recent.unshift({ text, value });
    if (recent.length > size) recent.pop();
    return value;
  };
}

/** A long text's key: its length and SHA-256, once for the body the run's memos (duplicate keys, judges, mask) meet in turn. */
const digestKey = recentMemo(
  (text) => `\u0000sha256:${text.length}:${createHash('sha256').update(text, 'utf16le').digest('base64')}`,
  2,
);

/**
 * `compute` remembered for short keys that come again and again (a run's file ids and timestamps,
 * page after page): at most `maxEntries` keys of at most `maxKeyChars` characters, all forgotten when
 * full, so a hostile target's long or countless ones cost no memory; a longer key is computed every
 * time. What is returned is shared: a caller that returns objects freezes them.
 */
export function shortKeyMemo<V>(
  compute: (key: string) => V,
  maxEntries: number,
  maxKeyChars: number,
): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    if (key.length > maxKeyChars) return compute(key);
    // One lookup for a value kept (most keys come again); a second only for a key kept as undefined.
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as V;
    const value = compute(key);
    if (known.size >= maxEntries) known.clear();
    known.set(key, value);
    return value;
  };
}
