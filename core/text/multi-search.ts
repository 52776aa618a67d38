/**
 * Every occurrence of many patterns in one pass over a text (Aho–Corasick), for the mask
 * (core/text/mask.ts): a secret has some sixty forms, and one `indexOf` pass per form read each text
 * that many times. The automaton reads it once, whatever the number of forms.
 *
 * What it finds is what a loop of `indexOf` per pattern finds: for each pattern, its leftmost
 * occurrence, then the leftmost one that starts after it ends, and so on (occurrences of one pattern
 * do not overlap; occurrences of different patterns may). Matching ignores ASCII letter case: the
 * patterns are given in lower case, and the text's ASCII letters are read lowered (the Kelvin sign
 * as `k`, as `String.prototype.toLowerCase` reads it, unless the text holds U+0130, which the mask
 * lowers by ASCII only). A caller whose patterns hold other characters lowers the text itself first.
 *
 * Linear: the pass reads each character once; the failure links it follows are bounded by the
 * characters read (each one lowers the depth reached, which each character raises by one at most);
 * and each occurrence reported is one of at most `patterns` occurrences ending at a character. The
 * automaton holds one node per character of the patterns, in typed arrays (no object per node); the
 * shallowest nodes, where a pass over ordinary text spends its time, also get a row of a complete
 * transition table, bounded in size whatever the patterns' length.
 *
 * Most text holds no pattern, and a key's forms are long (41 characters at least for a 32-hex-digit
 * key): the automaton reads only where one may start. As Wu and Manber's search does, the pass looks
 * at the last three characters of a window as long as the shortest pattern and skips as far as they
 * allow (a block found in no pattern's first `window` characters skips the window less two); only a
 * window whose end is the end of some pattern's first characters is read by the automaton, which then
 * reads on until no partial match would hold the next window back. The automaton never reads a
 * character twice (it goes on from where it stopped, or starts fresh further on, where nothing it
 * held can end in a match), and each window looked at ends further on than the last: linear still.
 * In ordinary bodies, which hold no key, it reads a small part of the characters, blocks included.
 */
/** Entries of the transition table at most (4 bytes each). */
const MAX_TABLE = 1 << 18;
/** Characters read at a window's end to decide how far to skip (Wu–Manber's block). */
const BLOCK = 3;
/** Shortest pattern length from which the pass skips: below it a skip is a few characters at most. */
const MIN_WINDOW = 8;
/** Entries of the skip table (1 byte each): blocks of three classes, exact while there are 64 classes at most. */
const SKIP_ENTRIES = 1 << 18;
/** The skip table's index of a block of three character classes. */
const blockIndex = (a: number, b: number, c: number): number => ((a << 12) ^ (b << 6) ^ c) & (SKIP_ENTRIES - 1);

export class MultiSearch {
  /** Whether every pattern is ASCII (the text then needs no lowering beyond its ASCII letters). */
  readonly asciiOnly: boolean;
  private readonly lengths: Int32Array;
  /**
   * Characters by class: 0 for a character in no pattern (from anywhere, back to the root), else one
   * class per distinct character of the patterns. ASCII by table (an upper-case letter in its
   * lower case's class), others by map.
   */
  private readonly asciiClass = new Int32Array(128);
  private readonly otherClass = new Map<number, number>();
  /** Per node: the node reached on its longest proper suffix, and the first node of its suffix chain (itself included) where a pattern ends, or -1. */
  private readonly fail: Int32Array;
  private readonly reports: Int32Array;
  /** Per node: the pattern ending there (-1 none; of equal patterns the first), and the next node on its suffix chain where one ends (-1 none). */
  private readonly out: Int32Array;
  private readonly dict: Int32Array;
  /** Per node: the class of its only child (-1 no child, -2 several, held in `many`), and that child. */
  private readonly onlyLabel: Int32Array;
  private readonly onlyChild: Int32Array;
  private readonly many = new Map<number, Map<number, number>>();
  /** Per node: where its row starts in `table` (-1 for none: a deep node, which follows its failure link). */
  private readonly rowOf: Int32Array;
  private readonly table: Int32Array;
  /** Per node: the length of the pattern prefix it stands for. */
  private readonly depth: Int32Array;
  /**
   * Windows: the shortest pattern's length (at most 257, so that a skip fits a byte), 0 when the pass
   * does not skip; per block of three classes, how far a window whose last block it is may move on.
   */
  private readonly window: number;
  private readonly skip: Uint8Array | undefined;

  /** `patterns` in lower case. */
  constructor(patterns: readonly string[], maxRows = 256) {
    let total = 1;
    let ascii = true;
    let classes = 1;
    for (const p of patterns) {
      total += p.length;
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (c < 128) {
          if (this.asciiClass[c] === 0) this.asciiClass[c] = classes++;
        } else {
          ascii = false;
          if (!this.otherClass.has(c)) this.otherClass.set(c, classes++);
        }
      }
    }
    // Patterns are lower case: an upper-case letter reads as its lower case (a class of its own only
    // if a pattern holds the upper-case letter itself, which a caller lowering its text never meets).
    for (let c = 65; c <= 90; c++) if (this.asciiClass[c] === 0) this.asciiClass[c] = this.asciiClass[c + 32]!;
    this.asciiOnly = ascii;
    this.lengths = Int32Array.from(patterns, (p) => p.length);
    this.fail = new Int32Array(total);
    this.reports = new Int32Array(total).fill(-1);
    this.out = new Int32Array(total).fill(-1);
    this.dict = new Int32Array(total).fill(-1);
    this.onlyLabel = new Int32Array(total).fill(-1);
    this.onlyChild = new Int32Array(total);
    this.rowOf = new Int32Array(total).fill(-1);
    this.depth = new Int32Array(total);
    let nodes = 1;
    for (let index = 0; index < patterns.length; index++) {
      const p = patterns[index]!;
      if (p.length === 0) continue;
      let node = 0;
      for (let i = 0; i < p.length; i++) {
        const c = this.classOf(p.charCodeAt(i));
        let next = this.child(node, c);
        if (next < 0) {
          next = nodes++;
          this.addChild(node, c, next);
          this.depth[next] = i + 1;
        }
        node = next;
      }
      if (this.out[node]! < 0) this.out[node] = index;
    }
    // Breadth first: a node's suffix is shallower, so it is linked before the node, and the first
    // `rows` nodes (every node of the levels they cover) get a row of the transition table.
    // The table stays small whatever the alphabet (a key of a thousand distinct characters).
    const rows = Math.max(1, Math.min(nodes, maxRows, Math.floor(MAX_TABLE / classes)));
    this.table = new Int32Array(rows * classes);
    const queue = new Int32Array(nodes);
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const u = queue[head++]!;
      if (head - 1 < rows) this.rowOf[u] = (head - 1) * classes;
      this.reports[u] = this.out[u]! >= 0 ? u : this.dict[u]!;
      const label = this.onlyLabel[u]!;
      if (label >= 0) queue[tail++] = this.link(u, label, this.onlyChild[u]!);
      else if (label === -2) for (const [c, v] of this.many.get(u)!) queue[tail++] = this.link(u, c, v);
      const row = this.rowOf[u]!;
      if (row >= 0) {
        // The complete transitions of a row node: its child, else its suffix's (a row node, shallower).
        const failRow = this.rowOf[this.fail[u]!]!;
        for (let c = 1; c < classes; c++) {
          const v = this.child(u, c);
          this.table[row + c] = v >= 0 ? v : u === 0 ? 0 : this.table[failRow + c]!;
        }
      }
    }
    let shortest = Infinity;
    for (const p of patterns) if (p.length > 0 && p.length < shortest) shortest = p.length;
    this.window = shortest >= MIN_WINDOW ? Math.min(shortest, 255 + BLOCK - 1) : 0;
    this.skip = this.window > 0 ? this.skipTable(patterns, this.window) : undefined;
  }

  /**
   * For each block of three classes, the distance from its last place in some pattern's first
   * `window` characters to their end (0: a window ending with it may be a pattern's start); a block
   * in none of them lets the window move on by all but the two characters it may share with one.
   */
  private skipTable(patterns: readonly string[], window: number): Uint8Array {
    const skip = new Uint8Array(SKIP_ENTRIES).fill(window - BLOCK + 1);
    for (const p of patterns) {
      if (p.length === 0) continue;
      let a = this.classOf(p.charCodeAt(0));
      let b = this.classOf(p.charCodeAt(1));
      for (let j = BLOCK - 1; j < window; j++) {
        const c = this.classOf(p.charCodeAt(j));
        const k = blockIndex(a, b, c);
        skip[k] = Math.min(skip[k]!, window - 1 - j);
        a = b;
        b = c;
      }
    }
    return skip;
  }

  /** Links v, the child of u on class c, to the node of its longest proper suffix; returns v. */
  private link(u: number, c: number, v: number): number {
    const to = u === 0 ? 0 : this.step(this.fail[u]!, c);
    this.fail[v] = to;
    this.dict[v] = this.out[to]! >= 0 ? to : this.dict[to]!;
    return v;
  }

  private classOf(c: number): number {
    if (c < 128) return this.asciiClass[c]!;
    return this.otherClass.get(c) ?? 0;
  }

  private child(node: number, c: number): number {
    const label = this.onlyLabel[node]!;
    if (label === c) return this.onlyChild[node]!;
    if (label !== -2) return -1;
    return this.many.get(node)!.get(c) ?? -1;
  }

  /**
   * The node reached from `node` on class `c`: its child, else along failure links to one that has it
   * or has a row. Each link followed is counted in `counted` (the search's counted work), if given.
   */
  private step(node: number, c: number, counted?: { steps: number }): number {
    for (;;) {
      const row = this.rowOf[node]!;
      if (row >= 0) return this.table[row + c]!;
      const next = this.child(node, c);
      if (next >= 0) return next;
      node = this.fail[node]!;
      if (counted) counted.steps++;
    }
  }

  private addChild(node: number, c: number, child: number): void {
    const label = this.onlyLabel[node]!;
    if (label === -1) {
      this.onlyLabel[node] = c;
      this.onlyChild[node] = child;
    } else if (label === -2) this.many.get(node)!.set(c, child);
    else {
      this.many.set(
        node,
        new Map([
          [label, this.onlyChild[node]!],
          [c, child],
        ]),
      );
      this.onlyLabel[node] = -2;
    }
  }

  /**
   * The occurrences in `text`, as the indexOf loop finds them, grouped by pattern (in the patterns'
   * order) and, within a pattern, from left to right; `steps` is the work done, in characters read,
   * failure links followed and occurrences met (for the mask's count of its work).
   */
  search(text: string): { pattern: number[]; at: number[]; steps: number } {
    const found: Found = { pattern: [], at: [], steps: 0, free: undefined, kelvin: -1 };
    if (this.skip) this.skipping(text, this.skip, found);
    else this.read(text, 0, text.length, 0, found);
    const { pattern, at, steps } = found;
    if (pattern.length > 1) {
      const order = pattern.map((_, k) => k).sort((a, b) => pattern[a]! - pattern[b]! || at[a]! - at[b]!);
      return { pattern: order.map((k) => pattern[k]!), at: order.map((k) => at[k]!), steps };
    }
    return { pattern, at, steps };
  }

  /**
   * The automaton's reading of text[from, to) from `state`; returns the state reached. The loop the
   * pass spends its time in, kept small so that the engine optimises it early: a character's class,
   * then a row of the table; what is rare (a character above ASCII, a deep node, a form found) is in
   * methods of its own.
   */
  private read(text: string, from: number, to: number, state: number, found: Found): number {
    const { reports, rowOf, table, asciiClass } = this;
    found.steps += to - from;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      const c = code < 128 ? asciiClass[code]! : this.classAbove(text, code, found);
      if (c === 0) {
        state = 0;
        continue;
      }
      const row = rowOf[state]!;
      state = row >= 0 ? table[row + c]! : this.step(state, c, found);
      if (reports[state]! >= 0) this.report(state, i, found);
    }
    return state;
  }

  /**
   * The pass that skips (the class's comment): windows of `window` characters, the last block of each
   * looked up in `skip`; the automaton reads from a window that may start a pattern, through its end,
   * and on while its partial match is deeper than `window - BLOCK` (the next window must end past
   * what it read by a whole block).
   */
  private skipping(text: string, skip: Uint8Array, found: Found): void {
    const { window, depth, asciiClass } = this;
    const n = text.length;
    const room = window - BLOCK;
    let read = 0;
    let state = 0;
    for (let end = window - 1; end < n; ) {
      const a = text.charCodeAt(end - 2);
      const b = text.charCodeAt(end - 1);
      const c = text.charCodeAt(end);
      const shift =
        skip[
          blockIndex(
            a < 128 ? asciiClass[a]! : this.classAbove(text, a, found),
            b < 128 ? asciiClass[b]! : this.classAbove(text, b, found),
            c < 128 ? asciiClass[c]! : this.classAbove(text, c, found),
          )
        ]!;
      found.steps += BLOCK;
      if (shift > 0) {
        end += shift;
        continue;
      }
      // Nothing the automaton held can end in a match when it starts fresh further on: a match starting
      // in between would have been a window's start before this one.
      const start = end - window + 1;
      if (start > read) {
        read = start;
        state = 0;
      }
      const through = Math.max(read, end + 1);
      state = this.read(text, read, through, state, found);
      read = through;
      for (; read < n && depth[state]! > room; read++) state = this.read(text, read, read + 1, state, found);
      if (read >= n) return;
      end = read - depth[state]! + window - 1;
    }
  }

  /** The class of a character above ASCII (the Kelvin sign as `k`, unless the text holds U+0130). */
  private classAbove(text: string, code: number, found: Found): number {
    if (!this.asciiOnly) return this.classOf(code);
    if (code !== 0x212a) return 0;
    if (found.kelvin < 0) found.kelvin = text.includes('\u0130') ? 0 : 1;
    return found.kelvin === 1 ? this.asciiClass[107]! : 0;
  }

  /** The patterns ending at i (at `state` and along its suffix chain), each kept if it starts after the last one kept of it. */
  private report(state: number, i: number, found: Found): void {
    for (let node = this.reports[state]!; node >= 0; node = this.dict[node]!) {
      found.steps++;
      const p = this.out[node]!;
      const start = i + 1 - this.lengths[p]!;
      found.free ??= new Int32Array(this.lengths.length);
      if (start < found.free[p]!) continue;
      found.free[p] = i + 1;
      found.pattern.push(p);
      found.at.push(start);
    }
  }
}

/** What a search has found so far, and where each pattern's next occurrence may start. */
interface Found {
  pattern: number[];
  at: number[];
  steps: number;
  free: Int32Array | undefined;
  kelvin: number;
}
