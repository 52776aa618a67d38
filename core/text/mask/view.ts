import type { MaskWork } from './work.ts';

/**
 * A view of a text: its characters, and for each the span of the original it came from. The spans
 * are held by segment, not by character: a run of characters that are their own view (most of any
 * text) is one segment, each decoded character another, so a view costs its text and a few numbers
 * per escape, and a span is looked up (by bisection) only where a form is found. A view decoded
 * again maps through the view it was decoded from.
 */
export class View {
  constructor(
    readonly text: string,
    /** Per segment: where it starts in the view, where in the text below, and where it ends there (-1: a run, one character for one). */
    private readonly at: readonly number[],
    private readonly from: readonly number[],
    private readonly to: readonly number[],
    private readonly below?: View,
    /** A decoding pass that decoded nothing: what the literal pass makes of the same text. */
    readonly literalToo = false,
    /** The view is the text it was made of, character for character (one run over all of it, or both empty). */
    readonly whole = false,
  ) {}

  /** Where the view's character k starts in the original text. */
  start(k: number): number {
    const j = this.segment(k);
    const start = this.to[j]! < 0 ? this.from[j]! + (k - this.at[j]!) : this.from[j]!;
    return this.below ? this.below.start(start) : start;
  }

  /** Where the view's character k ends in the original text. */
  end(k: number): number {
    const j = this.segment(k);
    const end = this.to[j]! < 0 ? this.from[j]! + (k - this.at[j]!) + 1 : this.to[j]!;
    return this.below ? this.below.end(end - 1) : end;
  }

  /** Over `view`, a view of this one's text: the view of the original it gives. */
  over(view: View): View {
    return new View(view.text, view.at, view.from, view.to, this);
  }

  /** Whether both views are the same text mapped the same way (searching the second finds nothing new). */
  sameAs(other: View): boolean {
    if (this.below || other.below || this.at.length !== other.at.length) return false;
    for (let j = 0; j < this.at.length; j++)
      if (this.at[j] !== other.at[j] || this.from[j] !== other.from[j] || this.to[j] !== other.to[j]) return false;
    return this.text === other.text;
  }

  private segment(k: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.at[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Decoded characters gathered before they join a view's text (a writer empties it before it ends). */
const PENDING = new Uint16Array(1024);

/**
 * One pass writing a view of `s`, left to right: runs of `s` that are their own view, taken as
 * slices, and characters spelled otherwise (an escape, a reference), each with the span of `s` that
 * spells it: how a view maps its positions back. What a pass skips it simply does not write.
 */
export class ViewWriter {
  readonly n: number;
  /** Set by a reading that decoded (an escape, a reference, a join): the pass is then not the literal one. */
  decodedAny = false;
  private readonly at: number[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private text = '';
  /** Characters written so far. */
  private k = 0;
  private runFrom = -1;
  private runTo = -1;
  private held = 0;

  constructor(
    readonly s: string,
    readonly work: MaskWork,
  ) {
    this.n = s.length;
  }

  /** Characters start..end of `s` as themselves. */
  itself(start: number, end: number): void {
    if (this.runTo !== start) {
      this.closeRun();
      this.runFrom = start;
    }
    this.runTo = end;
  }

  /** The view's next character, `code`, spelled by s[start..end). */
  emit(code: number, start: number, end: number): void {
    if (end === start + 1 && code === this.s.charCodeAt(start)) return this.itself(start, end);
    this.closeRun();
    this.at.push(this.k);
    this.from.push(start);
    this.to.push(end);
    PENDING[this.held++] = code;
    this.k++;
    if (this.held === PENDING.length) this.flushPending();
  }

  /** The view written; `decodes`: the pass is a decoding one (a literal pass is never `literalToo`). */
  view(decodes: boolean): View {
    this.closeRun();
    this.flushPending();
    const { at, to } = this;
    return new View(
      this.text,
      at,
      this.from,
      to,
      undefined,
      decodes && !this.decodedAny,
      this.k === this.n && (at.length === 0 || (at.length === 1 && to[0] === -1)),
    );
  }

  private flushPending(): void {
    if (this.held > 0)
      this.text += String.fromCharCode.apply(null, PENDING.subarray(0, this.held) as unknown as number[]);
    this.held = 0;
  }

  private closeRun(): void {
    const { runFrom, runTo } = this;
    if (runTo > runFrom) {
      this.flushPending();
      this.at.push(this.k);
      this.from.push(runFrom);
      this.to.push(-1);
      this.text += runFrom === 0 && runTo === this.n ? this.s : this.s.slice(runFrom, runTo);
      this.k += runTo - runFrom;
    }
    this.runFrom = this.runTo = -1;
  }
}
