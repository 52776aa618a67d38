/**
 * "Lexicographic path order" (2.2, 4.1) has faithful readings along two axes (spec/readings.yaml):
 * the unit a string is compared in, UTF-8 bytes (Unicode code point order) or UTF-16 code units (the
 * default string order of Java, JavaScript and C#), and what is compared, the path as one string or
 * the path as its sequence of `/`-separated components (the order of pathlib and of file-system
 * listers: `a/b/c.txt` before `a b.txt`). A listing may be in any of the four, but in one: a tracker
 * starts with all of them and keeps those the paths seen so far are in.
 */
import { codePointRank, compareUnits, comparePaths } from '../../core/document/file-id.ts';

export type PathOrder =
  | 'UTF-8 byte order'
  | 'UTF-16 code-unit order'
  | 'UTF-8 component order'
  | 'UTF-16 component order';
export const PATH_ORDERS: readonly PathOrder[] = [
  'UTF-8 byte order',
  'UTF-16 code-unit order',
  'UTF-8 component order',
  'UTF-16 component order',
];

/** UTF-16 code-unit order: JavaScript's own comparison of strings. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Paths as sequences of `/`-separated components, each compared by `unit` (code points or UTF-16 code
 * units); a prefix sequence first. The same as comparing the whole paths with `/` lower than every
 * other unit, which needs no split.
 */
export function compareComponents(a: string, b: string, unit: 'code point' | 'code unit'): number {
  return compareUnits(a, b, unit === 'code point' ? slashFirstCodePoint : slashFirstCodeUnit);
}

const SLASH = 0x2f;
const slashFirstCodePoint = (u: number) => (u === SLASH ? -1 : codePointRank(u));
const slashFirstCodeUnit = (u: number) => (u === SLASH ? -1 : u);

export function compareIn(order: PathOrder, a: string, b: string): number {
  switch (order) {
    case 'UTF-8 byte order':
      return comparePaths(a, b);
    case 'UTF-16 code-unit order':
      return compareUtf16(a, b);
    case 'UTF-8 component order':
      return compareComponents(a, b, 'code point');
    case 'UTF-16 component order':
      return compareComponents(a, b, 'code unit');
  }
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
    if (PATH_ORDERS.every((o) => compareIn(o, a, b) > 0))
      return `it is after it in every lexicographic path order (${PATH_ORDERS.join(', ')})`;
    return `it is after it in ${this.candidates.join(' and ')}, the order of the paths listed before`;
  }

  /** a compared with b in every possible order, or undefined when the possible orders disagree. */
  compare(a: string, b: string): number | undefined {
    const signs = new Set(this.candidates.map((o) => Math.sign(compareIn(o, a, b))));
    return signs.size === 1 ? [...signs][0] : undefined;
  }
}

/**
 * Whether `b` is after `a` in some lexicographic path order. A pair the listing puts in an order that
 * one reading holds but not the one its other pairs showed breaks the order (files.list.path-order),
 * not the rule that brought the pair together (a cursor's, a scan position's): the listing resumed
 * after the cursor, in an order it does not keep.
 */
export function afterInSomeOrder(a: string, b: string): boolean {
  return PATH_ORDERS.some((o) => compareIn(o, a, b) < 0);
}

/** The orders a strictly increasing sequence of paths is in (none when it is in neither). */
export function ordersOf(paths: readonly string[]): PathOrder[] {
  return PATH_ORDERS.filter((o) => paths.every((p, i) => i === 0 || compareIn(o, paths[i - 1]!, p) < 0));
}
