import { expect, test } from '@playwright/test';
import type { Exchange } from '../core/check/evidence.ts';
import { JudgeMemo } from '../core/check/judge-memo.ts';
import type { ResponseJudge, SeenResponse } from '../core/check/judge.ts';
import { recentMemo, shortKeyMemo, TextMemo } from '../core/text/text-memo.ts';

test('a long text is computed once; a short one every time; past the bound the oldest entries give way', () => {
  const memo = new TextMemo<number>(4, 22);
  let calls = 0;
  const count = (t: string) => (calls++, t.length);
  expect([memo.of('abcdefgh', count), memo.of('abcdefgh', count)]).toEqual([8, 8]);
  expect(calls, 'the second is remembered').toBe(1);
  memo.of('abc', count);
  memo.of('abc', count);
  expect(calls, 'shorter than the minimum: computed each time').toBe(3);
  memo.of('0123456789ab', count); // 8 + 12 = 20 characters kept, under the bound of 22
  memo.of('ZYXWVUTSRQ', count); // would pass it: the oldest (abcdefgh) gives way
  memo.of('ZYXWVUTSRQ', count);
  expect(calls).toBe(5);
  memo.of('0123456789ab', count);
  expect(calls, 'still kept').toBe(5);
  memo.of('abcdefgh', count);
  expect(calls, 'gave way: computed again').toBe(6);
  memo.clear();
  memo.of('abcdefgh', count);
  expect(calls, 'cleared').toBe(7);
  memo.of('x'.repeat(23), count);
  memo.of('x'.repeat(23), count);
  expect(calls, 'longer than the whole bound: computed each time, never kept').toBe(9);
});

test('a text longer than one entry may be (a cursor of megabytes) is kept under its digest, within the bound', () => {
  const memo = new TextMemo<number>(4, 100, 10);
  let calls = 0;
  const count = (t: string) => (calls++, t.length);
  const long = 'x'.repeat(60);
  expect([memo.of(long, count), memo.of(`${long}`, count)]).toEqual([60, 60]);
  expect(calls).toBe(1);
  expect(memo.of(`${'x'.repeat(59)}y`, count), 'another text of that length is another entry').toBe(60);
  expect(calls).toBe(2);
});

/** A list-interns answer of `body` as the judges see it, asked by `check` at `url`. */
function seenInterns(body: string, query: Record<string, string>, check: string, url: string): SeenResponse {
  const exchange: Exchange = {
    request: { method: 'GET', url, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body, truncated: false },
    durationMs: 1,
    retries: 0,
  };
  return {
    operation: 'listInterns',
    check,
    status: 200,
    json: {},
    text: body,
    query,
    pathParams: {},
    auth: 'key',
    exchange,
  };
}

test('the judges see a response once per request and body; each finding carries the exchange of the response it is reported for', () => {
  let judged = 0;
  const judge: ResponseJudge = {
    id: 'j',
    requirements: ['files.list.schema'],
    judge: (r) => (judged++, [{ requirementId: 'files.list.schema', message: 'm', exchange: r.exchange }]),
  };
  const memo = new JudgeMemo([judge]);
  const body = 'x'.repeat(600);
  const seen = (query: Record<string, string>, url: string) => seenInterns(body, query, 'c', url);
  const first = memo.findings(seen({ limit: '5' }, 'u1'));
  const again = memo.findings(seen({ limit: '5' }, 'u2'));
  expect(judged).toBe(1);
  expect([first[0]!.exchange.request.url, again[0]!.exchange.request.url]).toEqual(['u1', 'u2']);
  memo.findings(seen({ limit: '6' }, 'u3'));
  expect(judged, 'another request is judged anew').toBe(2);
  // One body, many requests: 64 are kept for it, the others judged each time.
  for (let n = 7; n < 7 + 63; n++) memo.findings(seen({ limit: String(n) }, 'u'));
  expect(judged).toBe(65);
  memo.findings(seen({ limit: '69' }, 'u'));
  memo.findings(seen({ limit: '5' }, 'u'));
  expect(judged, 'the 64 kept; a 65th request judged again').toBe(66);
  memo.findings(seen({ limit: '70' }, 'u'));
  memo.findings(seen({ limit: '70' }, 'u'));
  expect(judged).toBe(68);
});

test('the judges note a response once per request and body, as they judge it', () => {
  let noted = 0;
  const judge: ResponseJudge = {
    id: 'j',
    requirements: ['interns.order.newest-first'],
    judge: () => [],
    note: (r) => (noted++, { key: JSON.stringify(r.query), value: r.query, chars: 1 }),
  };
  const memo = new JudgeMemo([judge]);
  const body = 'y'.repeat(600);
  const seen = (query: Record<string, string>, check: string) => seenInterns(body, query, check, 'u');
  const first = memo.judged(seen({ limit: '5' }, 'a')).notes;
  const again = memo.judged(seen({ limit: '5' }, 'b')).notes;
  expect(noted).toBe(1);
  expect(again).toEqual(first);
  expect(first).toEqual([['j', { key: '{"limit":"5"}', value: { limit: '5' }, chars: 1 }]]);
  expect(memo.judged(seen({ limit: '6' }, 'a')).notes[0]![1].key).toBe('{"limit":"6"}');
  expect(noted, 'another request is noted anew').toBe(2);
});

test('a memo that keeps short texts is bounded in entries too: past it the oldest give way', () => {
  const memo = new TextMemo<number>(1, 1000, 100, 3);
  let calls = 0;
  const count = (t: string) => (calls++, t.length);
  for (const t of ['a', 'b', 'c']) memo.of(t, count);
  memo.of('a', count);
  expect(calls, 'three entries kept').toBe(3);
  memo.of('d', count); // a fourth: the oldest (a) gives way
  memo.of('b', count);
  expect(calls).toBe(4);
  memo.of('a', count);
  expect(calls, 'gave way: computed again').toBe(5);
});

test('a short-key memo remembers each short key once (an undefined result too), computes a longer key every time, and forgets all when full', () => {
  let calls = 0;
  const memo = shortKeyMemo((k: string) => (calls++, k.startsWith('u') ? undefined : k.length), 3, 4);
  expect([memo('ab'), memo('ab'), memo('u1'), memo('u1')]).toEqual([2, 2, undefined, undefined]);
  expect(calls, 'each short key once').toBe(2);
  memo('abcde');
  memo('abcde');
  expect(calls, 'longer than the bound: computed each time').toBe(4);
  memo('c');
  memo('d'); // a fourth key: the memo was full, everything is forgotten
  memo('ab');
  expect(calls).toBe(7);
});

test('a recent-text memo computes once for a text met again in turn, and forgets past its size', () => {
  let computed = 0;
  const memo = recentMemo((t: string) => (computed++, t.length), 2);
  const long = 'x'.repeat(2_000_000);
  expect(memo(long)).toBe(2_000_000);
  // An equal text that is another string: found by comparison, not computed again.
  expect(memo('x'.repeat(2_000_000))).toBe(2_000_000);
  expect(computed).toBe(1);
  memo('a');
  memo('b');
  // Two texts since: the long one has given way.
  expect(memo(long)).toBe(2_000_000);
  expect(computed).toBe(4);
});
