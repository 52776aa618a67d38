/**
 * "Lexicographic path order" (2.2, 4.1) has two faithful readings (spec/readings.yaml): over UTF-8
 * bytes, which is Unicode code point order, and over UTF-16 code units, the default string order of
 * Java, JavaScript and C#. They differ only where one path holds a character above U+FFFF and another
 * a character in U+E000-U+FFFF at the same position. A listing may be in either, but in one: a
 * tracker starts with both and keeps those the paths seen so far are in.
 */
import { comparePaths } from '../../core/file-id.ts';

export type PathOrder = 'UTF-8 byte order' | 'UTF-16 code-unit order';
export const PATH_ORDERS: readonly PathOrder[] = ['UTF-8 byte order', 'UTF-16 code-unit order'];

/** UTF-16 code-unit order: JavaScript's own comparison of strings. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareIn(order: PathOrder, a: string, b: string): number {
  return order === 'UTF-8 byte order' ? comparePaths(a, b) : compareUtf16(a, b);
}

/** The orders the listing of one target may be in, narrowed by every pair of paths whose order it shows. */
export class PathOrderTracker {
  private candidates: PathOrder[] = [...PATH_ORDERS];

  /** The orders still possible (never empty: a pair that would empty it is refused by `before`). */
  get orders(): readonly PathOrder[] {
    return this.candidates;
  }

  /** The order the paths seen so far are in when they tell the two apart, else undefined. */
  get known(): PathOrder | undefined {
    return this.candidates.length === 1 ? this.candidates[0] : undefined;
  }

  /**
   * Records that the target put `a` strictly before `b`. Returns undefined when some possible order
   * agrees (and keeps only those), or why none does: then the orders are left as they were.
   */
  before(a: string, b: string): string | undefined {
    const agree = this.candidates.filter((o) => compareIn(o, a, b) < 0);
    if (agree.length > 0) {
      this.candidates = agree;
      return undefined;
    }
    if (a === b) return 'it is the same path';
    if (PATH_ORDERS.every((o) => compareIn(o, a, b) > 0)) return 'it is after it in UTF-8 byte order and in UTF-16 code-unit order';
    return `it is after it in ${this.candidates.join(' and ')}, the order of the paths listed before`;
  }

  /** a compared with b in every possible order, or undefined when the possible orders disagree. */
  compare(a: string, b: string): number | undefined {
    const signs = new Set(this.candidates.map((o) => Math.sign(compareIn(o, a, b))));
    return signs.size === 1 ? [...signs][0] : undefined;
  }
}

/** The orders a strictly increasing sequence of paths is in (none when it is in neither). */
export function ordersOf(paths: readonly string[]): PathOrder[] {
  return PATH_ORDERS.filter((o) => paths.every((p, i) => i === 0 || compareIn(o, paths[i - 1]!, p) < 0));
}
