/** core/http/json-body.ts: strict UTF-8 (RFC 8259 section 8.1, RFC 3629), JSON parsing and duplicate object names. */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import {
  decodeJsonBody,
  firstDuplicateKey,
  firstInvalidUtf8,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
} from '../core/http/json-body.ts';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

test('valid UTF-8 JSON is decoded and parsed, with no finding', () => {
  const d = decodeJsonBody(bytes('{"path":"intl/caf\u00e9 \u65e5\u672c \u{1f600}.txt","n":[1,2]}'));
  expect(d).toEqual({
    text: '{"path":"intl/caf\u00e9 \u65e5\u672c \u{1f600}.txt","n":[1,2]}',
    json: { path: 'intl/caf\u00e9 \u65e5\u672c \u{1f600}.txt', n: [1, 2] },
  });
});

test('a Latin-1 byte inside a string is reported at its byte offset; the rest of the body is still parsed', () => {
  // {"description":"caf<E9>"} : the 0xE9 lead byte is followed by `"`, not a continuation byte.
  const body = bytes('{"description":"caf', [0xe9], '"}');
  const d = decodeJsonBody(body);
  expect(d.invalidUtf8Offset).toBe(19);
  expect(body[19]).toBe(0xe9);
  expect(d.jsonError).toBeUndefined();
  expect(d.json).toEqual({ description: 'caf\ufffd' });
  expect(d.text).toBe('{"description":"caf\ufffd"}');
});

test('each kind of ill-formed sequence of RFC 3629 is found at its first byte', () => {
  const cases: Array<[string, number[]]> = [
    ['lone continuation byte', [0x80]],
    ['overlong 2-byte form of "/"', [0xc0, 0xaf]],
    ['overlong lead 0xC1', [0xc1, 0x81]],
    ['overlong 3-byte form', [0xe0, 0x80, 0xaf]],
    ['UTF-16 surrogate U+D800', [0xed, 0xa0, 0x80]],
    ['overlong 4-byte form', [0xf0, 0x80, 0x80, 0xaf]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['lead byte 0xF5', [0xf5, 0x80, 0x80, 0x80]],
    ['0xFF', [0xff]],
    ['truncated 3-byte sequence', [0xe6, 0x97]],
    ['truncated 4-byte sequence at the end', [0xf0, 0x9f, 0x98]],
  ];
  for (const [what, bad] of cases) {
    const buf = bytes('["ok \u00e9", "', bad, '"]');
    expect(firstInvalidUtf8(buf), what).toBe(Buffer.byteLength('["ok \u00e9", "'));
    expect(decodeJsonBody(buf).invalidUtf8Offset, what).toBe(Buffer.byteLength('["ok \u00e9", "'));
  }
  // The largest and the boundary code points are well formed.
  expect(firstInvalidUtf8(bytes('\u{10ffff}\u{ffff}\u{10000}\u0800\u07ff\ud7ff\ue000'))).toBeUndefined();
});

test('not JSON: empty body, syntax error, byte order mark', () => {
  expect(decodeJsonBody(Buffer.alloc(0))).toEqual({ text: '', jsonError: 'empty body' });
  const html = decodeJsonBody(bytes('<html></html>'));
  expect(html.json).toBeUndefined();
  expect(html.jsonError).toMatch(/Unexpected token/);
  // RFC 8259 8.1: a BOM MUST NOT be added; this reader does not skip one.
  const bom = decodeJsonBody(bytes([0xef, 0xbb, 0xbf], '{}'));
  expect(bom.jsonError).toBeDefined();
  expect(bom.invalidUtf8Offset).toBeUndefined();
});

/** JSON text written member by member, so that an object may name a member twice (escaped or not): what JSON.stringify never writes. */
const jsonWithRepeats: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.integer().map(String),
      fc.constantFrom('true', 'null', '1.5e3'),
      fc.string({ unit: fc.constantFrom('a', ':', '"', '\\', '{', ',', ' ') }).map((t) => JSON.stringify(t)),
    ),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom('a', 'b', ':', 'a:b'), fc.boolean(), tie('value')), { maxLength: 5 })
      .map(
        (members) =>
          `{${members.map(([name, escaped, v]) => `${escaped ? `"\\u${name.charCodeAt(0).toString(16).padStart(4, '0')}${name.slice(1)}"` : JSON.stringify(name)} : ${v}`).join(',')}}`,
      ),
  ),
})).value;

test('decodeJsonBody finds the first duplicate name as firstDuplicateKey does, scanning for it only when the parsed body holds fewer names than the text', () => {
  fc.assert(
    fc.property(jsonWithRepeats, (text) => {
      let scans = 0;
      const d = decodeJsonBody(Buffer.from(text, 'utf8'), (t) => (scans++, firstDuplicateKey(t)));
      expect(d.jsonError).toBeUndefined();
      const expected = firstDuplicateKey(text);
      expect(d.duplicateKey).toBe(expected);
      expect(scans).toBe(expected === undefined ? 0 : 1);
      expect(Object.isFrozen(d.json)).toBe(true);
    }),
    { numRuns: 400 },
  );
});

test('a duplicate object name is reported by its JSON pointer, after unescaping, at any depth', () => {
  expect(decodeJsonBody(bytes('{"data":[{"id":"a"},{"id":"b","id":"c"}]}')).duplicateKey).toBe('/data/1/id');
  expect(firstDuplicateKey('{"a":1,"\\u0061":2}')).toBe('/a');
  expect(firstDuplicateKey('{"a/b":{"x~y":1,"x~y":2}}')).toBe('/a~1b/x~0y');
  // Equal names in different objects, and strings that look like names in values or arrays, are not duplicates.
  expect(firstDuplicateKey('{"a":{"a":"a"},"b":["a","a"],"c":{"d":"{\\"a\\":1,\\"a\\":2}"}}')).toBeUndefined();
  expect(firstDuplicateKey('[{"k":1},{"k":2}]')).toBeUndefined();
  expect(firstDuplicateKey('"just a string"')).toBeUndefined();
  // Only the first one is named.
  expect(firstDuplicateKey('{"x":{"p":1,"p":2},"y":1,"y":2}')).toBe('/x/p');
  // A string ends at the first quote after an even run of backslashes: `a\` is a name, `\"` is not an end.
  expect(firstDuplicateKey('{"a\\\\":1,"a\\\\":2}')).toBe('/a\\');
  expect(firstDuplicateKey('{"x":"\\\\","x":1}')).toBe('/x');
  expect(firstDuplicateKey(JSON.stringify({ x: '\\","x":1,"\\\\', y: 1 }))).toBeUndefined();
  expect(firstDuplicateKey('{"d":[0,{"q":{"r":[{"s":1,"s":2}]}}]}')).toBe('/d/1/q/r/0/s');
  // Objects of many names (kept in a set past the first sixteen): a repeat before and after the switch.
  const many = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
  expect(firstDuplicateKey(`{${many.join(',')}}`)).toBeUndefined();
  expect(firstDuplicateKey(`{${many.join(',')},"k3":0}`)).toBe('/k3');
  expect(firstDuplicateKey(`{${many.slice(0, 16).join(',')},"k15":0}`)).toBe('/k15');
  expect(firstDuplicateKey(`{${many.slice(0, 17).join(',')},"k16":0}`)).toBe('/k16');
  // JSON.parse keeps the last value: what a lenient client would have judged.
  expect(decodeJsonBody(bytes('{"object":"list","object":"file"}')).json).toEqual({ object: 'file' });
});

test('deep nesting and a large body are scanned without recursion (no stack overflow at any depth)', () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  expect(firstDuplicateKey(deep)).toBeUndefined();
  const big = JSON.stringify({
    data: Array.from({ length: 10_000 }, (_, i) => ({ id: `cfile_${i}`, path: `p/${i}` })),
  });
  const d = decodeJsonBody(Buffer.from(big));
  expect(d.duplicateKey).toBeUndefined();
  expect((d.json as { data: unknown[] }).data).toHaveLength(10_000);
});

// Parsing is bounded in depth and size (RFC 8259 section 9); past either bound the body
// is not parsed and its jsonError says why (a finding), in one linear pass.
test('a body nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES values is not parsed, and says why', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const deep = decodeJsonBody(bytes('['.repeat(100_000) + ']'.repeat(100_000)));
  expect(deep.json).toBeUndefined();
  expect(deep.jsonError).toBe(
    `nested deeper than ${MAX_JSON_DEPTH} levels, not read (RFC 8259 section 9 lets a reader limit nesting; the service's bodies are a few levels deep)`,
  );
  const many = decodeJsonBody(bytes(`{"data":[${'{},'.repeat(MAX_JSON_VALUES)}{}]}`));
  expect(many.json).toBeUndefined();
  expect(many.jsonError).toMatch(new RegExp(`^more than ${MAX_JSON_VALUES} values, not read`));
  // At the bounds (brackets and commas inside strings do not count), a body is read.
  const atDepth = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
  expect(decodeJsonBody(bytes(atDepth)).jsonError).toBeUndefined();
  expect(
    decodeJsonBody(bytes(JSON.stringify({ s: '[[[[,,,,{{{{'.repeat(100_000), q: 'a\\"[' }))).jsonError,
  ).toBeUndefined();
  expect(decodeJsonBody(bytes(`[${'1,'.repeat(MAX_JSON_VALUES - 2)}1]`)).jsonError).toBeUndefined();
});

test('a parsed body is frozen through and through, at the deepest nesting the reading limits let through', () => {
  const body = decodeJsonBody(bytes('{"data":[{"id":"a","tags":["x"]},{"nested":{"deep":[1,[2]]}}]}')).json as {
    data: Array<Record<string, unknown>>;
  };
  expect(
    Object.isFrozen(body) &&
      Object.isFrozen(body.data) &&
      Object.isFrozen(body.data[0]) &&
      Object.isFrozen(body.data[0]!['tags']),
  ).toBe(true);
  expect(Object.isFrozen((body.data[1]!['nested'] as { deep: unknown[] }).deep[1])).toBe(true);
  // A check that sorted or changed a shared body would change what every other check reads: it throws instead.
  expect(() => (body.data as unknown[]).sort()).toThrow(TypeError);
  const deep = decodeJsonBody(bytes('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).json;
  let frozen = 0;
  for (let at = deep as unknown[]; ; at = at[0] as unknown[]) {
    if (Object.isFrozen(at)) frozen++;
    if (at.length === 0) break;
  }
  expect(frozen).toBe(MAX_JSON_DEPTH);
});
