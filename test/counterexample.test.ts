/**
 * Counterexamples shown as data (never as JavaScript source) and replay commands that select exactly
 * the failing check, in-process.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { ProbeContext } from '../core/check/check.ts';
import { dataJson, toData } from '../core/text/data-json.ts';
import { ConformanceFailure } from '../core/check/errors.ts';
import { checkGrep, checkReplayCommand } from '../core/run/replay.ts';
import { checkProperty } from '../suites/support/property.ts';

/** Just what checkProperty reads of its context: the settings and the check's seed. */
function context(): ProbeContext {
  return {
    seed: 5,
    settings: { seed: 7, numRuns: 10, maxRequests: 2000, replay: 'npm run conformance -- --target t.yaml --seed 7' },
  } as unknown as ProbeContext;
}

async function failureOf(p: Promise<void>): Promise<ConformanceFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ConformanceFailure) return e;
    throw e;
  }
  throw new Error('the property did not fail');
}

test('a counterexample holding a function is printed and stored as data: a marker, never its source', async () => {
  const failure = await failureOf(
    checkProperty(context(), 'x.prop', {
      arbitrary: fc.record({
        pick: fc.func(fc.integer()),
        n: fc.integer({ min: 0, max: 9 }),
        s: fc.constant('a\u001b[2J\u009bb'),
      }),
      requestsPerRun: 1,
      budgetShare: 0.5,
      predicate: async () => {
        throw new ConformanceFailure('files.list.schema', 'always fails');
      },
    }),
  );
  expect(failure.requirementId).toBe('files.list.schema');
  expect(failure.message).toContain('"pick":"[function]"');
  expect(failure.message).not.toMatch(/=>|function\s*\(|return |hash|Symbol/);
  // JSON escapes keep the message free of control characters (C0 by JSON itself, C1 by dataJson).
  expect(failure.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(failure.message).toContain('"s":"a\\u001b[2J\\u009bb"');
  // The stored value is plain data: what report.json will hold is exactly it.
  const value = failure.counterexample?.value;
  expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  expect(value).toMatchObject({ pick: '[function]', n: 0, s: 'a\u001b[2J\u009bb' });
  // Its replay: the run's command, the exact check, and the counterexample's path.
  expect(failure.message).toContain(
    `replay: npm run conformance -- --target t.yaml --seed 7 --grep '(^| )x\\.prop( |$)' --replay-path '${failure.counterexample?.path}'`,
  );
});

test('dataJson: what JSON cannot hold becomes a marker; cycles, depth, size and length are bounded', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const throwing = Object.defineProperty({}, 'x', {
    enumerable: true,
    get() {
      throw new Error('no');
    },
  });
  expect(
    toData({
      u: undefined,
      s: Symbol('k'),
      b: 10n,
      nan: NaN,
      inf: -Infinity,
      z: -0,
      f() {},
      c: cyclic,
      m: new Map([[1, 'a']]),
      set: new Set([2]),
      d: new Date(0),
      t: throwing,
    }),
  ).toEqual({
    u: '[absent]',
    s: '[symbol]',
    b: '[bigint 10]',
    nan: '[NaN]',
    inf: '[-Infinity]',
    z: '[-0]',
    f: '[function]',
    c: { a: 1, self: '[circular]' },
    m: { '[Map]': [[1, 'a']] },
    set: { '[Set]': [2] },
    d: '1970-01-01T00:00:00.000Z',
    t: { x: '[unreadable]' },
  });
  // A key named __proto__ stays a key of the data.
  expect(dataJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  let deep: unknown = 'bottom';
  for (let i = 0; i < 1000; i++) deep = [deep];
  expect(dataJson(deep, 10_000)).toContain('"[…]"');
  expect(
    dataJson(
      Array.from({ length: 100_000 }, (_, i) => i),
      1_000_000,
    ),
  ).toContain('"[…]"');
  const long = dataJson('x'.repeat(5000), 100);
  expect(long).toHaveLength(100);
  expect(long.endsWith('…')).toBe(true);
  // Bidirectional and line-separator characters are JSON escapes too, and parse back to themselves.
  expect(JSON.parse(dataJson('a\u202eb\u2028c'))).toBe('a\u202eb\u2028c');
  expect(dataJson('a\u202eb\u2028c')).toBe('"a\\u202eb\\u2028c"');
});

/** How Playwright 1.x matches --grep: flags gi, against the title path and tags joined by spaces. */
function playwrightSelects(grep: string, title: string): boolean {
  return new RegExp(grep, 'gi').test(`conformance.spec.ts ${title}`);
}

test('the replay --grep selects the failing check and no other, as Playwright matches it', () => {
  const titles = [
    'files.after.strictly-after @must @files',
    'files.after @must @files',
    'files.afterx @must',
    'xfiles.after @must',
    'files_after @must',
  ];
  expect(titles.filter((t) => playwrightSelects(checkGrep('files.after'), t))).toEqual(['files.after @must @files']);
  expect(titles.filter((t) => playwrightSelects(checkGrep('files.after.strictly-after'), t))).toEqual([
    'files.after.strictly-after @must @files',
  ]);
  // The anchored form once printed selects nothing under the same matching.
  expect(titles.filter((t) => playwrightSelects('^files\\.after$', t))).toEqual([]);
  // The command keeps the run's own command (its target and options) and quotes for the shell.
  expect(checkReplayCommand('npm run conformance -- --target my.yaml --seed 3', 3, 'a.b', '1:2')).toBe(
    "npm run conformance -- --target my.yaml --seed 3 --grep '(^| )a\\.b( |$)' --replay-path '1:2'",
  );
  expect(checkReplayCommand('', 9, 'a.b')).toBe("npm run conformance -- --seed 9 --grep '(^| )a\\.b( |$)'");
});
