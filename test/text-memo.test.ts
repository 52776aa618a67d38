import { expect, test } from '@playwright/test';
import type { Exchange } from '../core/evidence.ts';
import { JudgeMemo } from '../core/judge-memo.ts';
import type { ResponseJudge, SeenResponse } from '../core/judge.ts';
import { TextMemo } from '../core/text-memo.ts';

test('a long text is computed once; a short one every time; past the bound nothing more is kept', () => {
  const memo = new TextMemo<number>(4, 20);
  let calls = 0;
  const count = (t: string) => (calls++, t.length);
  expect([memo.of('abcdefgh', count), memo.of('abcdefgh', count)]).toEqual([8, 8]);
  expect(calls, 'the second is remembered').toBe(1);
  memo.of('abc', count);
  memo.of('abc', count);
  expect(calls, 'shorter than the minimum: computed each time').toBe(3);
  memo.of('0123456789ab', count); // 8 + 12 = 20 characters kept: the bound
  memo.of('ZYXWVUTSRQ', count); // would pass it: computed, not kept
  memo.of('ZYXWVUTSRQ', count);
  expect(calls).toBe(6);
  memo.clear();
  memo.of('abcdefgh', count);
  expect(calls, 'cleared').toBe(7);
  const each = new TextMemo<number>(4, 100, 10);
  each.of('x'.repeat(11), count);
  each.of('x'.repeat(11), count);
  expect(calls, 'longer than one entry may be: computed each time, never kept').toBe(9);
});

test('the judges see a response once per request and body; each finding carries the exchange of the response it is reported for', () => {
  let judged = 0;
  const judge: ResponseJudge = { id: 'j', requirements: ['r'], judge: (r) => (judged++, [{ requirementId: 'r', message: 'm', exchange: r.exchange }]) };
  const memo = new JudgeMemo([judge]);
  const body = 'x'.repeat(600);
  const seen = (query: Record<string, string>, url: string): SeenResponse => {
    const exchange: Exchange = { request: { method: 'GET', url, headers: {} }, response: { status: 200, headers: { 'content-type': 'application/json' }, body, truncated: false }, durationMs: 1, retries: 0 };
    return { operation: 'listInterns', check: 'c', status: 200, json: {}, text: body, query, pathParams: {}, auth: 'key', exchange };
  };
  const first = memo.findings(seen({ limit: '5' }, 'u1'));
  const again = memo.findings(seen({ limit: '5' }, 'u2'));
  expect(judged).toBe(1);
  expect([first[0]!.exchange.request.url, again[0]!.exchange.request.url]).toEqual(['u1', 'u2']);
  memo.findings(seen({ limit: '6' }, 'u3'));
  expect(judged, 'another request is judged anew').toBe(2);
});
