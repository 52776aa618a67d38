/**
 * Weak keys (core/text/mask/weak-keys.ts): a key shorter than 8 characters or one of the document's
 * words is masked only where it stands as the key (core/text/mask/stands-as-key.ts), so that the pass
 * over a whole rendered report never rewrites its check ids or field names; the run warns of it at load.
 */
import { expect, test } from '@playwright/test';
import { runWarnings } from '../cli/run-warnings.ts';
import { DOCUMENT_WORDS } from '../core/text/mask/document-words.ts';
import { SAFE_KEY_CHARS } from '../core/text/mask/safe-length.ts';
import { isWeakKey, Mask, weakKeyWarnings } from '../core/text/mask.ts';
import { REPORT_FILES } from '../reports/write-report.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { documentWords } from './support/document-words.ts';
import { oneFailureReport } from './support/synthetic-report.ts';

test("every word of the document's sources is a weak key, and the committed list holds none no longer derived", () => {
  const derived = documentWords();
  // Property names and enum values of spec/openapi.yaml are among them (else the derivation proves nothing).
  for (const word of ['data', 'object', 'limit', 'has_more', 'service_metadata', 'awaiting_chat_install'])
    expect(derived.has(word), word).toBe(true);
  const missing = [...derived].filter((w) => !isWeakKey(w));
  expect(missing, 'add them to core/text/mask/document-words.ts').toEqual([]);
  const stale = [...DOCUMENT_WORDS].filter((w) => !derived.has(w));
  expect(stale, 'remove them from core/text/mask/document-words.ts').toEqual([]);
  expect([...DOCUMENT_WORDS].every((w) => w.length >= SAFE_KEY_CHARS && w === w.toLowerCase())).toBe(true);
});

test('weak: shorter than 8 characters, or a word of the document in any case; a random key of 8 is not', () => {
  expect(SAFE_KEY_CHARS).toBe(8);
  for (const key of ['data', 'abc1234', 'Pagination', 'SERVICE_METADATA', 'service-metadata'])
    expect(isWeakKey(key), key).toBe(true);
  for (const key of ['Zq7-xPm9', 'sk-live_4f9A.b~c+d/e7Q2xZ==', 'pagination2']) expect(isWeakKey(key), key).toBe(false);
});

const DATA = new Mask([{ value: 'data', placeholder: '$API_KEY' }]);

test('a key `data` is masked where it stands as the key: a header value, after Bearer, a whole string or parameter value, its encodings whole', () => {
  const masked: Array<[string, string]> = [
    ['data', '$API_KEY'],
    ['Bearer data', 'Bearer $API_KEY'],
    ['authorization: bearer DATA', 'authorization: bearer $API_KEY'],
    ['x-echo: data\nnext line', 'x-echo: $API_KEY\nnext line'],
    ['{"message":"data"}', '{"message":"$API_KEY"}'],
    ['{"v": ["data", "x"]}', '{"v": ["$API_KEY", "x"]}'],
    [JSON.stringify(JSON.stringify({ echo: 'data' })), '"{\\"echo\\":\\"$API_KEY\\"}"'],
    ['GET /v1/interns?after=data&limit=2', 'GET /v1/interns?after=$API_KEY&limit=2'],
    ['<td>data</td>', '<td>$API_KEY</td>'],
    ['{"v":"ZGF0YQ=="}', '{"v":"$API_KEY"}'],
    ['{"v":"64617461"}', '{"v":"$API_KEY"}'],
    ['{"v":"\\u0064\\u0061\\u0074\\u0061"}', '{"v":"$API_KEY"}'],
    ['{"v":"%64%61ta"}', '{"v":"$API_KEY"}'],
  ];
  for (const [text, out] of masked) expect(DATA.text(text), text).toBe(out);
  expect(DATA.headers({ authorization: 'Bearer data', 'x-echo': 'data', 'x-data': '1' })).toEqual({
    authorization: 'Bearer $API_KEY',
    'x-echo': '$API_KEY',
    'x-data': '1',
  });
});

test("a key `data` leaves the document's words: member names, ids, prose, longer words, a piece of a base64 id", () => {
  for (const text of [
    '{"data":[],"object":"list"}',
    '{\n  "data" : [1]\n}',
    'files.errors.service-metadata data-wrapper.data',
    'data must be an array; the data field',
    'metadata database Bearer database',
    `cfile_${Buffer.from('x/data.txt').toString('base64url')} ZGF0YQ`,
    'data-wrapper data_id data.json',
  ])
    expect(DATA.text(text), text).toBe(text);
});

test('the pass over a whole rendered report (every report file) keeps its check ids and field names for a key `data`, and masks the key where the target echoed it', () => {
  const check = ALL_CHECKS.find((c) => c.id === 'files.errors.service-metadata')!;
  const report = oneFailureReport({
    checkId: check.id,
    reason: 'data is not an array',
    message: 'data must be an array',
    exchange: {
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:1/v1/models/a/b/endpoints',
        headers: { authorization: 'Bearer data' },
      },
      response: {
        status: 200,
        headers: { 'x-echo': 'data' },
        body: '{"data":{"id":"a/b","echo":"data"},"service_metadata":{}}',
        truncated: false,
      },
    },
  });
  for (const [name, render] of Object.entries(REPORT_FILES)) {
    const text = render(report);
    const masked = DATA.text(text);
    // Every check id the file names, it still names.
    for (const c of ALL_CHECKS) if (text.includes(c.id)) expect(masked, `${name}: ${c.id}`).toContain(c.id);
    expect(masked, name).not.toMatch(/Bearer data/i);
    if (name === 'report.json') {
      const parsed = JSON.parse(masked);
      expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text)));
      expect(masked).toContain('data must be an array');
      const exchange = parsed.checks.find((c: { checkId: string }) => c.checkId === check.id).failures[0].exchanges[0];
      expect(exchange.request.headers.authorization).toBe('Bearer $API_KEY');
      expect(exchange.response.headers['x-echo']).toBe('$API_KEY');
      expect(exchange.response.body).toBe('{"data":{"id":"a/b","echo":"$API_KEY"},"service_metadata":{}}');
    }
  }
});

test('the run warns of a weak key at load: one line naming its field, never the key; none for a strong key', () => {
  const strong = 'sk-live_4f9A.b~c+d/e7Q2xZ==';
  expect(weakKeyWarnings({ apiKey: strong, restrictedApiKey: strong.toUpperCase() })).toEqual([]);
  const lines = weakKeyWarnings({ apiKey: 'data', restrictedApiKey: 'Q7z' });
  expect(lines).toEqual([
    expect.stringMatching(
      /^apiKey of the target file .*masking it everywhere would hide the document's words; it is masked only where it stands as the key/,
    ),
    expect.stringMatching(/^restrictedApiKey of the target file /),
  ]);
  for (const line of lines) expect(line).not.toMatch(/\bdata\b|Q7z/);
  expect(runWarnings({ apiKey: 'data' }, {})).toEqual([lines[0]]);
  expect(runWarnings({ apiKey: strong }, {})).toEqual([]);
  expect(runWarnings({ apiKey: 'data' }, { NODE_TLS_REJECT_UNAUTHORIZED: '0' })).toHaveLength(2);
});
