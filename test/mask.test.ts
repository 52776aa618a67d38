/**
 * The one mask (core/text/mask.ts): every encoding a target can echo a key in is replaced, found by a
 * scanner that decodes instead of encoding (test/support/key-scan.ts), so the two cannot share a gap.
 */
import { expect, test } from '@playwright/test';
import { SAFE_KEY_CHARS } from '../core/text/mask/safe-length.ts';
import { Mask, MIN_ENCODED_CHARS } from '../core/text/mask.ts';
import { keyEncodings } from './support/echo-server.ts';
import { findKeys } from './support/key-scan.ts';

const KEY = 'sk-live_4f9A.b~c+d/e7Q2xZ==';
const RESTRICTED = 'rk-Kz81/Tq+90_abcDEF-ghi.jkl';
const mask = new Mask([
  { value: KEY, placeholder: '$API_KEY' },
  { value: RESTRICTED, placeholder: '$RESTRICTED_API_KEY' },
]);

/** What `m` read doing `f` (characters, counted by the mask itself: no clock). */
function workOf(m: Mask, f: () => void): { read: number; search: number } {
  const before = m.work();
  f();
  const after = m.work();
  return { read: after.read - before.read, search: after.searched - before.searched };
}

test('the scanner finds every encoding of the echo server (else the tests below would prove nothing)', () => {
  for (const e of keyEncodings(KEY)) expect(findKeys(`before ${e.text} after`, [KEY]), e.name).not.toEqual([]);
  expect(findKeys('nothing to see here $API_KEY', [KEY])).toEqual([]);
});

for (const e of keyEncodings(KEY)) {
  test(`masked: the key as ${e.name}, alone, in text, in JSON, in a URL`, () => {
    for (const text of [
      e.text,
      `x=${e.text}&y=1`,
      JSON.stringify({ v: `a ${e.text} b` }),
      `"${e.text}"`,
      `http://h/v1?after=${encodeURIComponent(e.text)}`,
    ]) {
      const out = mask.text(text);
      expect(findKeys(out, [KEY]), `${e.name} in ${text}`).toEqual([]);
      expect(out).toContain('$API_KEY');
    }
  });
}

test('masked: mixes of escapes in one echo, escaped again (a body quoted in report.json), percent-encoded twice', () => {
  const mixed = [...KEY]
    .map((c, i) =>
      i % 3 === 0
        ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
        : i % 3 === 1
          ? `%${c.charCodeAt(0).toString(16).toUpperCase()}`
          : c.toUpperCase(),
    )
    .join('');
  const quotedTwice = JSON.stringify(JSON.stringify({ body: `{"k":"${mixed}"}` }));
  const percentTwice = encodeURIComponent(encodeURIComponent(KEY));
  const slashEscaped = KEY.replaceAll('/', '\\/');
  const xEscaped = [...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
  for (const text of [mixed, quotedTwice, percentTwice, slashEscaped, xEscaped, `%5Cu0073${KEY.slice(1)}`]) {
    const out = mask.text(text);
    expect(findKeys(out, [KEY]), text).toEqual([]);
    expect(out).toContain('$API_KEY');
  }
});

test('a value parsed out of a masked body and serialised again is masked by the pass over the rendered output', () => {
  const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const body = `{"echo":"${escaped}"}`;
  // What a report writer does: parse a body, show it again (JSON.parse turns \u0073 into s).
  const rendered = JSON.stringify(JSON.parse(body), null, 2);
  expect(rendered).toContain(KEY);
  expect(findKeys(mask.text(rendered), [KEY])).toEqual([]);
});

test('longest secret first: a secret that contains another is replaced whole, each by its own placeholder', () => {
  const inner = new Mask([
    { value: 'abcdefgh', placeholder: '$SHORT' },
    { value: 'xx-abcdefgh-yy', placeholder: '$LONG' },
  ]);
  expect(inner.text('1 xx-abcdefgh-yy 2 abcdefgh 3')).toBe('1 $LONG 2 $SHORT 3');
  expect(mask.text(`${KEY} ${RESTRICTED}`)).toBe('$API_KEY $RESTRICTED_API_KEY');
});

test('text whose lower case is longer (U+0130 İ) does not shift the span masked, in plain and in escaped text', () => {
  // 'İ'.toLowerCase() is two code units: a search in a lower-cased copy would land one place late.
  for (const text of [`İİİ ${KEY} tail`, `İİİ\\n ${KEY} tail`, `${'İ'.repeat(40)}%41${KEY}`]) {
    const out = mask.text(text);
    expect(findKeys(out, [KEY]), text).toEqual([]);
    expect(out).toContain('$API_KEY');
    expect(out.endsWith(' tail') || out.endsWith('$API_KEY'), out).toBe(true);
  }
});

test('plain text (no escape, percent sign, reference or split) and the same text decoded give the same mask', () => {
  const plain = JSON.stringify({ data: [{ id: `x ${KEY} y`, n: 1 }, { v: KEY.toUpperCase() }] });
  const escaped = plain.replace('x ', 'x %20');
  expect(mask.text(plain)).toBe(plain.replaceAll(KEY, '$API_KEY').replace(KEY.toUpperCase(), '$API_KEY'));
  expect(mask.text(escaped)).toBe(escaped.replaceAll(KEY, '$API_KEY').replace(KEY.toUpperCase(), '$API_KEY'));
});

test('header names as well as values; names masked alike keep both values', () => {
  const out = mask.headers({
    [`x-${KEY.slice(0, 20)}`]: 'no',
    [`x-${Buffer.from(KEY).toString('hex')}`]: '1',
    [`X-${KEY.toUpperCase()}`]: KEY,
    'x-other': 'ok',
  });
  expect(Object.keys(out).sort()).toEqual(['X-$API_KEY', `x-${KEY.slice(0, 20)}`, 'x-$API_KEY', 'x-other'].sort());
  expect(out['X-$API_KEY']).toBe('$API_KEY');
  const joined = mask.headers({ [`x-${KEY}`]: 'a', [`x-${KEY.toLowerCase()}`]: 'b' });
  expect(joined).toEqual({ 'x-$API_KEY': 'a, b' });
  for (const [k, v] of Object.entries(out)) expect(findKeys(`${k}: ${v}`, [KEY])).toEqual([]);
});

test('short keys: masked only where they stand as the key, in the plain form and its encodings of the key alone from MIN_ENCODED_CHARS characters', () => {
  const short = new Mask([{ value: 'ab', placeholder: '$K' }]);
  // Inside a word, a key of two letters is a piece of the word: it stays (core/text/mask/weak-keys.ts).
  expect(short.text('xabx ab-cd')).toBe('xabx ab-cd');
  expect(short.text('ab')).toBe('$K');
  expect(short.text('{"k":"ab"}')).toBe('{"k":"$K"}');
  // The hex of "ab" is 4 characters, masked as a whole value; its base64 ("YWI") is 3, and stays.
  expect(MIN_ENCODED_CHARS).toBe(4);
  expect(short.text('["6162", "YWI"]')).toBe('["$K", "YWI"]');
  // A key of 3 characters: its hex (6) and its base64 (4).
  const three = new Mask([{ value: 'q7Z', placeholder: '$K' }]);
  expect(three.text(`(${Buffer.from('q7Z').toString('hex')}) (${Buffer.from('q7Z').toString('base64')})`)).toBe(
    '($K) ($K)',
  );
});

test('masks of the same secrets share what they build, each with its own placeholders, however the secrets were added', () => {
  const text = `a ${KEY} b ${Buffer.from(RESTRICTED).toString('hex')} c`;
  const both = new Mask([
    { value: KEY, placeholder: '$ONE' },
    { value: RESTRICTED, placeholder: '$TWO' },
  ]);
  const other = new Mask([
    { value: KEY, placeholder: '$UNO' },
    { value: RESTRICTED, placeholder: '$DOS' },
  ]);
  const added = new Mask([{ value: KEY, placeholder: '$ONE' }]);
  expect(added.text(text)).toBe(`a $ONE b ${Buffer.from(RESTRICTED).toString('hex')} c`);
  added.add([{ value: RESTRICTED, placeholder: '$TWO' }]);
  expect(both.text(text)).toBe('a $ONE b $TWO c');
  expect(other.text(text)).toBe('a $UNO b $DOS c');
  expect(added.text(text)).toBe('a $ONE b $TWO c');
});

test('the client API: new Mask(secrets), add() ignoring known and empty values, text(), headers()', () => {
  const r = new Mask([{ value: KEY, placeholder: '$API_KEY' }]);
  const derived = Buffer.from(`${KEY}:`).toString('base64');
  r.add([
    { value: derived, placeholder: '$API_KEY_BASIC' },
    { value: '', placeholder: '$EMPTY' },
  ]);
  for (let i = 0; i < 1000; i++) r.add([{ value: derived, placeholder: '$API_KEY_BASIC' }]);
  expect(r.text(`Basic ${derived}`)).toBe('Basic $API_KEY_BASIC');
  expect(r.text('')).toBe('');
  expect(r.headers({ authorization: `Bearer ${KEY}` })).toEqual({ authorization: 'Bearer $API_KEY' });
  // Adding a known value a thousand times costs nothing: the same forms searched, so the same work as once.
  const once = new Mask([{ value: KEY, placeholder: '$API_KEY' }]);
  once.add([{ value: derived, placeholder: '$API_KEY_BASIC' }]);
  const text = 'x'.repeat(100_000);
  const work = (red: Mask) => workOf(red, () => red.text(text));
  const single = work(once);
  expect(single.search).toBeGreaterThan(0);
  expect(work(r)).toEqual(single);
});

test('each mask counts its own work: masking with one leaves the counters of another as they were', () => {
  const one = new Mask([{ value: KEY, placeholder: '$K' }]);
  const other = new Mask([{ value: KEY, placeholder: '$K' }]);
  other.text(`warm ${KEY}`);
  const before = other.work();
  expect(one.work()).toEqual({ read: 0, searched: 0 });
  expect(one.text(`x %41 ${KEY}`)).toBe('x %41 $K');
  expect(one.work().read).toBeGreaterThan(0);
  expect(one.work().searched).toBeGreaterThan(0);
  expect(other.work()).toEqual(before);
});

test('a large output is masked in a bounded number of passes', () => {
  const big = (repeats: number) => `${'{"a":"lorem ipsum \\u0041 %41 414243 QUJD",'.repeat(repeats)}"k":"${KEY}"}`;
  const work = (text: string) => workOf(mask, () => expect(mask.text(text).endsWith('"k":"$API_KEY"}')).toBe(true));
  const small = work(big(6_250));
  const large = work(big(50_000));
  // A constant number of passes over the text, and a search that grows with it and no faster.
  expect(large.read).toBeLessThanOrEqual(12 * big(50_000).length);
  expect(large.read).toBeLessThanOrEqual(8.5 * small.read);
  expect(large.search).toBeLessThanOrEqual(8.5 * small.search);
});

test('keys of 1 to 16,384 characters are masked in every encoding, in work linear in the echo', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';
  /** Characters searched per character of echo, by key length. */
  const perChar = new Map<number, number>();
  for (const length of [1, 7, 64, 1000, 8_000, 16_384]) {
    const key = Array.from({ length }, (_, i) => alphabet[(i * 7 + length) % alphabet.length]).join('');
    const m = new Mask([{ value: key, placeholder: '$API_KEY' }]);
    const before = m.work();
    let chars = 0;
    for (const e of keyEncodings(key)) {
      // Encoded forms of a very short key are not masked (MIN_ENCODED_CHARS): only its plain spellings are.
      if (length < MIN_ENCODED_CHARS && /hex|base64|base32|list|rot13/.test(e.name)) continue;
      // A key shorter than SAFE_KEY_CHARS is masked only as a whole value: not spaced out, not inside a
      // larger base64 or base32 blob (core/text/mask/weak-keys.ts).
      if (length < SAFE_KEY_CHARS && /^(spaced|base64|base32)/.test(e.name)) continue;
      const text = `{"echo":"${e.text}"}`;
      chars += text.length;
      const out = m.text(text);
      expect(findKeys(out, length < 4 ? [] : [key]), `${length}: ${e.name}`).toEqual([]);
      expect(out, `${length}: ${e.name}`).toContain('$API_KEY');
    }
    // A constant number of passes over each echo, however long the key.
    const after = m.work();
    expect(after.read - before.read, `length ${length}`).toBeLessThanOrEqual(12 * chars);
    perChar.set(length, (after.searched - before.searched) / chars);
  }
  // The search reads each echo once per view, all forms at once, and a key has as many forms at 16,384
  // characters as at 8,000: twice the key, twice the echo, twice the work (not four times).
  expect(perChar.get(16_384)!, JSON.stringify([...perChar])).toBeLessThanOrEqual(1.1 * perChar.get(8_000)!);
});

// Every pass over a target's bytes is linear, those for what does not show, compatibility forms,
// quoted-printable, octal and references without `;` included. Counted
// in characters read (no clock), the runs a pass reads ahead included: 8 times the text is at most
// 8 times the work, whatever it holds (a quadratic pass would do 64 times). The key sits at the end,
// so the whole text is read and the key still found.
const ADVERSARIAL: ReadonlyArray<[string, string]> = [
  ['a run of backslashes', '\\'],
  ['a chain of %25', '%25'],
  ['backslashes percent-encoded', '%5c'],
  ['ampersands without a semicolon', '&#x'],
  ['quotes and blanks', '" '],
  ['one long line of letters', 'a'],
  ['tag characters', '\u{E0020}'],
  ['fullwidth letters', '\uFF53'],
  ['percent-encoded zero-width spaces', '%E2%80%8B'],
  ['quoted-printable', '=4'],
  ['soft line breaks', '=\n'],
  ['octal escapes', '\\16'],
  ['references without a semicolon', '&#1'],
  ['single characters spaced out', 'a '],
  ['pairs spaced out and line breaks', 'ab.\n'],
  ['a key spaced out but its last character', `${[...KEY.slice(0, -1)].join(' ')} - `],
];
for (const [what, unit] of ADVERSARIAL) {
  test(`linear work on 8 MiB of ${what} (characters read, counted)`, () => {
    const work = (chars: number) => {
      const text = unit.repeat(Math.ceil(chars / unit.length)) + KEY;
      return workOf(mask, () => expect(mask.text(text).endsWith('$API_KEY')).toBe(true));
    };
    const small = work(1024 * 1024);
    const large = work(8 * 1024 * 1024);
    expect(large.read).toBeLessThanOrEqual(8.5 * small.read);
    expect(large.search).toBeLessThanOrEqual(8.5 * small.search);
    // A constant number of passes over the text: the views, their rounds and the checks before them.
    expect(large.read).toBeLessThanOrEqual(12 * 8 * 1024 * 1024);
  });
}

test('a key of SAFE_KEY_CHARS characters in a base64 cursor is masked at every alignment; a shorter one only as a whole value', () => {
  const key = 'Zq7-xPm9';
  expect(key).toHaveLength(SAFE_KEY_CHARS);
  const m = new Mask([{ value: key, placeholder: '$K' }]);
  for (const before of ['', 'a', 'ab']) {
    for (const cursor of [
      Buffer.from(`{"after":"${before}${key}"}`).toString('base64'),
      Buffer.from(`${before}${key}`).toString('base64url'),
    ]) {
      const out = m.text(`{"last_id":"${cursor}"}`);
      expect(out, cursor).toContain('$K');
      expect(findKeys(out, [key]), cursor).toEqual([]);
    }
  }
  // Six characters: its base64 alone is masked; inside a larger cursor it is not (the run warns at load).
  const six = new Mask([{ value: 'Zq7-xP', placeholder: '$K' }]);
  expect(six.text(`{"last_id":"${Buffer.from('Zq7-xP').toString('base64')}"}`)).toBe('{"last_id":"$K"}');
  const inside = `{"last_id":"${Buffer.from('{"after":"Zq7-xP"}').toString('base64')}"}`;
  expect(six.text(inside)).toBe(inside);
  const two = new Mask([{ value: 'Zq', placeholder: '$K' }]);
  expect(two.text(`{"id":"${Buffer.from('Zq').toString('hex')}"}`)).toBe('{"id":"$K"}');
});

test('what does not show is looked through, and fullwidth read as ASCII, also percent-encoded in a URL', () => {
  const woven = [...KEY].join('\u{E0020}\u034F\uFE0F');
  const fullwidth = [...KEY].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
  for (const text of [
    woven,
    fullwidth,
    encodeURIComponent(woven),
    encodeURIComponent(fullwidth),
    woven
      .split('')
      .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  ]) {
    expect(mask.text(`before ${text} after`)).toBe('before $API_KEY after');
  }
});

test('a key spaced out by blanks, dots, dashes, underscores, slashes, line breaks or a mix, or two by two, is masked', () => {
  const chars = [...KEY];
  for (const separator of [' ', '.', '-', '_', '/', '\n', ' . ', ', ', ' | ', ':', '\t', ' \n '])
    expect(mask.text(`id ${chars.join(separator)} end`), JSON.stringify(separator)).toBe('id $API_KEY end');
  const pairs = KEY.match(/.{1,2}/g)!;
  expect(mask.text(`[${pairs.join(' ')}]`)).toBe('[$API_KEY]');
  // Glued to what stands before and after it, escaped in JSON, percent-encoded.
  expect(mask.text(`x=${chars.join(' ')}&y=1`)).toBe('x=$API_KEY&y=1');
  expect(mask.text(JSON.stringify({ v: chars.join('\n') }))).toBe('{"v":"$API_KEY"}');
  expect(mask.text(encodeURIComponent(chars.join(' . ')))).toBe('$API_KEY');
});

test('a key spaced out among timestamps is masked, the timestamps stay; a key of 8 characters spaced out is masked too', () => {
  const stamps = (n: number) =>
    Array.from({ length: n }, (_, i) => `"2024-05-1${i % 10}T1${i % 10}:2${i % 7}:3${i % 5}.00${i % 9}Z"`).join(',');
  const chars = [...KEY];
  const text = `[${stamps(40)},"${chars.join(' ')}",${stamps(3)}]`;
  expect(mask.text(text)).toBe(`[${stamps(40)},"$API_KEY",${stamps(3)}]`);
  // The shortest spaced form is what a run must join to be searched: a run of exactly that many is.
  const eight = new Mask([{ value: 'Zq8Lm2Np', placeholder: '$K' }]);
  expect(eight.text(`${stamps(2)} Z q 8 L m 2 N p ${stamps(2)}`)).toBe(`${stamps(2)} $K ${stamps(2)}`);
  expect(eight.text(`xyzZq 8L m2 Npxyz`)).toBe('xyz$Kxyz');
  expect(eight.text(stamps(5))).toBe(stamps(5));
});

test('what is not a key spaced out stays: prose, ids, lists, and a key made of words written as words', () => {
  const words = new Mask([{ value: 'container-files-secret', placeholder: '$K' }]);
  for (const text of [
    'the container files secret is not the key',
    'container files secret',
    'files.errors.service-meta a b c d e f g h i j 1, 2, 3, 4, 5, 6, 7, 8',
    '2024-01-02 10:11:12 127.0.0.1 73 6b 2d 6c',
  ])
    expect(words.text(text)).toBe(text);
  expect(words.text(`x ${[...'container-files-secret'].join(' ')} y`)).toBe('x $K y');
  // A short key has no spaced form: a few single characters in a row are ordinary text.
  const short = new Mask([{ value: 'ab-cd-ef', placeholder: '$K' }]);
  expect(short.text('a b c d e f')).toBe('a b c d e f');
});

test("a decoding that would swallow the key's first characters does not hide it: the literal view finds it", () => {
  const hexKey = new Mask([{ value: 'AB12cd34ef', placeholder: '$K' }]);
  for (const text of ['x=AB12cd34ef', '%AB12cd34ef', '&#12AB12cd34ef', '\\123AB12cd34ef'])
    expect(hexKey.text(text), text).toContain('$K');
});
