/**
 * What a pure function gave for a long text, kept for the next time the same text comes: a run
 * receives the same body many times (the same page asked by several checks), and a Map finds it in
 * one native lookup instead of another pass over it. The texts it keeps are bounded, each and in
 * total, so a hostile target's bodies cannot grow it (principle 4): short texts and texts past a
 * mebi-character (a hostile body, a cursor of megabytes) are computed every time, never kept.
 */
export class TextMemo<V> {
  private readonly known = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly minChars = 512,
    private readonly maxChars = 8 * 1024 * 1024,
    private readonly maxEntryChars = 1024 * 1024,
  ) {}

  of(text: string, compute: (text: string) => V): V {
    if (text.length < this.minChars || text.length > this.maxEntryChars) return compute(text);
    if (this.known.has(text)) return this.known.get(text)!;
    const value = compute(text);
    if (this.chars + text.length <= this.maxChars) {
      this.known.set(text, value);
      this.chars += text.length;
    }
    return value;
  }

  clear(): void {
    this.known.clear();
    this.chars = 0;
  }
}
