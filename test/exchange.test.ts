/**
 * An exchange's body is masked when first read (core/http/exchange.ts): every way out of the process
 * (JSON.stringify, a spread, structuredClone, the console) reads it masked, and one never read is
 * never masked.
 */
import { inspect } from 'node:util';
import { expect, test } from '@playwright/test';
import { EVIDENCE_BODY_CHARS } from '../core/check/evidence.ts';
import { exchangeOf, type UnreadBodies } from '../core/http/exchange.ts';
import { Mask } from '../core/text/mask.ts';

const KEY = 'sk-live_4f9A.b~c+d/e7Q2xZ==';
const echoed = (text: string) => ({ status: 200, headers: { 'content-type': 'application/json' }, text });
const url = new URL('http://127.0.0.1:1/v1/interns');
const newMask = () => new Mask([{ value: KEY, placeholder: '$API_KEY' }]);

test('a body echoing the key is masked in every copy and print of its exchange', () => {
  const body = JSON.stringify({ error: { message: `bad key ${KEY}` } });
  const ways: Array<[string, (x: ReturnType<typeof exchangeOf>) => string]> = [
    ['JSON.stringify', (x) => JSON.stringify(x)],
    ['spread', (x) => JSON.stringify({ ...x.response })],
    ['structuredClone', (x) => JSON.stringify(structuredClone(x))],
    ['util.inspect', (x) => inspect(x, { depth: 5 })],
    ['body', (x) => x.response!.body],
  ];
  for (const [name, out] of ways) {
    const text = out(exchangeOf(newMask(), url, {}, echoed(body), 1, 0));
    expect(text, name).toContain('$API_KEY');
    expect(text, name).not.toContain(KEY);
    expect(text, name).not.toContain('[Getter]');
  }
});

test('a body is masked once, when first read, and cut as before', () => {
  const mask = newMask();
  const unread: UnreadBodies = { chars: 0 };
  const long = `${KEY} ${'x'.repeat(EVIDENCE_BODY_CHARS)}`;
  const x = exchangeOf(mask, url, {}, echoed(long), 1, 0, undefined, undefined, unread);
  const before = mask.work().read;
  expect(unread.chars).toBe(long.length);
  expect(x.response!.truncated).toBe(true);
  const read = mask.work().read;
  expect(read).toBeGreaterThan(before);
  expect(unread.chars).toBe(0);
  expect(x.response!.body).toBe(`$API_KEY ${'x'.repeat(EVIDENCE_BODY_CHARS - '$API_KEY '.length)}`);
  expect(mask.work().read).toBe(read);
  expect(Object.keys(x.response!)).toEqual(['status', 'headers', 'body', 'truncated']);
});

test('an exchange never read costs the mask nothing but its URL and headers', () => {
  const mask = newMask();
  exchangeOf(mask, url, {}, echoed('{"data":[]}'), 1, 0);
  const urlAndHeaders = mask.work().read;
  exchangeOf(mask, url, {}, echoed(`{"data":["${'y'.repeat(10_000)}"]}`), 1, 0);
  expect(mask.work().read).toBe(urlAndHeaders);
});

test('bodies over the bound of what a run holds unread are masked at once', () => {
  const mask = newMask();
  const unread: UnreadBodies = { chars: 32 * 1024 * 1024 };
  const x = exchangeOf(mask, url, {}, echoed(`"${KEY}"`), 1, 0, undefined, undefined, unread);
  expect(Object.getOwnPropertyDescriptor(x.response, 'body')?.value).toBe('"$API_KEY"');
  expect(unread.chars).toBe(32 * 1024 * 1024);
});
