/**
 * The mask's one-pass search (core/text/multi-search.ts): it finds what a loop of `indexOf` per pattern
 * finds, and reads a text in work linear in it, whatever the text and the patterns.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { Mask } from '../core/text/mask.ts';
import { MultiSearch } from '../core/text/multi-search.ts';

/** What core/text/multi-search.ts must find: one indexOf loop per pattern, occurrences not overlapping, in the patterns' order. */
function indexOfLoops(text: string, patterns: readonly string[]): Array<[number, number]> {
  const lower = text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  const out: Array<[number, number]> = [];
  const seen = new Set<string>();
  patterns.forEach((p, index) => {
    // Of equal patterns the first is reported (the second would find the same spans again).
    if (p.length === 0 || seen.has(p)) return;
    seen.add(p);
    for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + p.length)) out.push([index, at]);
  });
  return out;
}

function found(search: MultiSearch, text: string): Array<[number, number]> {
  const { pattern, at } = search.search(text);
  return pattern.map((p, k) => [p, at[k]!]);
}

test('the automaton finds what an indexOf loop per pattern finds: overlapping patterns, shared prefixes and suffixes, repeats, any case', () => {
  // A small alphabet, so that patterns share prefixes and suffixes, contain each other and recur.
  const word = (max: number) => fc.stringMatching(new RegExp(`^[abAB:]{0,${max}}$`));
  fc.assert(
    fc.property(fc.array(word(6), { minLength: 1, maxLength: 12 }), word(80), (raw, text) => {
      const patterns = raw.map((p) => p.toLowerCase()).sort((a, b) => b.length - a.length);
      expect(found(new MultiSearch(patterns), text)).toEqual(indexOfLoops(text, patterns));
    }),
    { numRuns: 400, seed: 31 },
  );
});

test('the automaton without table rows below the root (every node deep) finds the same', () => {
  const word = (max: number) => fc.stringMatching(new RegExp(`^[abc]{1,${max}}$`));
  fc.assert(
    fc.property(fc.array(word(5), { minLength: 1, maxLength: 8 }), word(60), (patterns, text) => {
      expect(found(new MultiSearch(patterns, 1), text)).toEqual(found(new MultiSearch(patterns), text));
      expect(found(new MultiSearch(patterns, 1), text)).toEqual(indexOfLoops(text, patterns));
    }),
    { numRuns: 300, seed: 7 },
  );
});

test("the pass that skips (patterns of 8 characters and more) finds what an indexOf loop finds: texts made of the patterns' pieces", () => {
  // A small alphabet: blocks recur across patterns and windows, partial matches run deep and fail late.
  const word = (min: number, max: number) => fc.stringMatching(new RegExp(`^[abcAB:]{${min},${max}}$`));
  fc.assert(
    fc.property(
      fc.array(word(8, 24), { minLength: 1, maxLength: 10 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), word(0, 6)), { maxLength: 30 }),
      (raw, pieces) => {
        const patterns = raw.map((p) => p.toLowerCase()).sort((a, b) => b.length - a.length);
        // Each piece: a slice of a pattern (a whole one, a prefix, a suffix), then a few characters.
        const text = pieces
          .map(([which, from, to, glue]) => {
            const p = raw[which % raw.length]!;
            const a = from % (p.length + 1);
            return p.slice(a, a + (to % (p.length + 1))) + glue;
          })
          .join('');
        expect(found(new MultiSearch(patterns), text)).toEqual(indexOfLoops(text, patterns));
      },
    ),
    { numRuns: 600, seed: 17 },
  );
});

test('the pass that skips: patterns longer than a skip can cover (a window of 257), and shorter ones beside them', () => {
  const long = `${'ab'.repeat(150)}c`;
  const other = 'abcab'.repeat(60);
  const text = `x${long}y${long.slice(0, 280)}${long}${other}${other.slice(1)}ab${long.toUpperCase()}`;
  for (const patterns of [
    [long, other],
    [other, long, 'cabab:ab'],
  ])
    expect(found(new MultiSearch(patterns), text)).toEqual(indexOfLoops(text, patterns));
});

test('the pass that skips reads a small part of a text that holds no pattern (characters read, counted)', () => {
  // The forms of a key of 32 hex digits are 41 characters at least: a listing's ids and names are
  // read about one window in a block's chance, not character by character.
  const key = 'ref_mgmt_e2b1d1ea19dfde6503592b19b22a8342';
  const text = JSON.stringify({
    data: Array.from({ length: 2000 }, (_, i) => ({
      id: `cfile_${Buffer.from(`dir/file-${i}.txt`).toString('base64url')}`,
      path: `dir/file-${i}.txt`,
      bytes: i * 37,
    })),
  });
  const mask = new Mask([{ value: key, placeholder: '$K' }]);
  const before = mask.work().searched;
  expect(mask.text(`${text}${key}`).endsWith('$K')).toBe(true);
  expect(mask.work().searched - before).toBeLessThan(text.length / 4);
});

test('an alphabet of thousands of characters (a key of any characters): every class found, the table bounded', () => {
  const wide = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
  const patterns = [wide, `${wide.slice(0, 10)}z`, 'zz'];
  // Each character of the alphabet after the start of the second pattern: only `z` completes it.
  const text = `a${wide}b${Array.from(wide, (ch) => `${wide.slice(0, 10)}${ch}`).join(' ')} ${wide.slice(0, 10)}zzz`;
  expect(found(new MultiSearch(patterns), text)).toEqual(indexOfLoops(text, patterns));
});

test('characters above ASCII: patterns of them match only themselves; the Kelvin sign reads as k unless the text holds U+0130', () => {
  expect(found(new MultiSearch(['kk']), 'a\u212Ak')).toEqual([[0, 1]]);
  expect(found(new MultiSearch(['kk']), '\u0130\u212Ak')).toEqual([]);
  expect(found(new MultiSearch(['é1', 'x']), 'é1 É1 x')).toEqual([
    [0, 0],
    [1, 6],
  ]);
});

// Texts built to make a search slow: the start of a form over and over (each start is a partial match
// that fails late), a form but for its last character, a key of one repeated letter in a text of it,
// and forms that overlap themselves. Counted in characters read (no clock): 8 times the text is at
// most 8.5 times the work, and a constant number of steps per character.
const KEY = 'sk-live_4f9A.b~c+d/e7Q2xZ==';
const NEAR: ReadonlyArray<[string, string, (chars: number) => string]> = [
  ['the start of the key repeated', KEY, (n) => KEY.slice(0, 20).repeat(Math.ceil(n / 20))],
  ['the key but its last character, repeated', KEY, (n) => `${KEY.slice(0, -1)}!`.repeat(Math.ceil(n / KEY.length))],
  ['a key of one letter in a text of it', 'a'.repeat(64), (n) => 'a'.repeat(n)],
  ['a periodic key in a text of its period', `${'ab'.repeat(40)}c`, (n) => 'ab'.repeat(n / 2)],
  [
    'the hex of the key, one digit short each time',
    KEY,
    (n) =>
      Buffer.from(KEY)
        .toString('hex')
        .slice(0, -1)
        .concat(' ')
        .repeat(Math.ceil(n / 54)),
  ],
];
for (const [what, key, textOf] of NEAR) {
  test(`linear search on near-matches: ${what}`, () => {
    const mask = new Mask([{ value: key, placeholder: '$K' }]);
    const work = (chars: number) => {
      const text = `${textOf(chars)} ${key}`;
      const before = mask.work();
      expect(mask.text(text).endsWith('$K')).toBe(true);
      const after = mask.work();
      return { read: after.read - before.read, search: after.searched - before.searched, chars: text.length };
    };
    const small = work(256 * 1024);
    const large = work(8 * 256 * 1024);
    expect(large.search).toBeLessThanOrEqual(8.5 * small.search);
    expect(large.read).toBeLessThanOrEqual(8.5 * small.read);
    // Steps per character bounded by a constant: the pass, the failure links and the forms met.
    expect(large.search / large.chars).toBeLessThan(4 * 64);
  });
}
