import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { CheckDeclaration, ProbeContext } from '../core/check/check.ts';
import { SkipCheck } from '../core/check/errors.ts';
import { Client, MAX_URL_CHARS } from '../core/http/client.ts';
import { executeCheck } from '../core/run/execute-check.ts';
import { viewOf } from '../core/target/target.ts';
import type { Transport } from '../core/http/transport.ts';
import { startReference } from '../reference/server.ts';
import { checkProperty } from '../suites/support/property.ts';
import { referenceTarget, testSettings } from './support/harness.ts';

// A point the suite cannot judge ends as not judged, with its own reason: never as the suite's
// error (exit 2), and never taking with it what was judged.

test("a URL past the suite's bound is not sent: its check ends not judged (skip) with the reason, not as an error", async () => {
  const server = await startReference({});
  try {
    const settings = testSettings(mkdtempSync(join(tmpdir(), 'long-url-')));
    const target = referenceTarget(server);
    let sent = 0;
    const transport: Transport = {
      get: () => {
        sent++;
        return Promise.reject(new Error('nothing is sent'));
      },
      close: async () => {},
    };
    const check: CheckDeclaration = {
      id: 'test.long-url',
      title: 'follows a cursor of 70,000 characters',
      operation: 'listContainerFiles',
      requirements: ['files.pagination.next-page'],
      async probe(ctx) {
        await ctx.api.listContainerFiles(target.containerFiles.containerId, { after: 'x'.repeat(MAX_URL_CHARS) });
      },
    };
    const outcome = await executeCheck(check, new Client(target, settings, transport), viewOf(target), settings);
    expect(sent).toBe(0);
    expect(outcome.status).toBe('skip');
    // Refused from the query's characters alone, before megabytes of them are percent-encoded.
    expect(outcome.reason).toMatch(
      /the URL would be at least \d+ characters long .*over the 65536 the suite sends; not sent/,
    );
    expect(outcome.cause).toBeUndefined();
    // A value under the bound whose percent-encoding is over it (a euro sign is 9 characters encoded): its encoded length.
    const encoded: CheckDeclaration = {
      ...check,
      async probe(ctx) {
        await ctx.api.listContainerFiles(target.containerFiles.containerId, {
          after: '\u20ac'.repeat(MAX_URL_CHARS / 8),
        });
      },
    };
    const wide = await executeCheck(encoded, new Client(target, settings, transport), viewOf(target), settings);
    expect(sent).toBe(0);
    expect(wide.status).toBe('skip');
    expect(wide.reason).toMatch(/the URL would be \d{5,} characters long .*over the 65536 the suite sends; not sent/);
  } finally {
    await server.close();
  }
});

/** A probe context with what checkProperty reads: the settings and the check's seed. */
function propertyContext(): ProbeContext {
  const settings = testSettings(mkdtempSync(join(tmpdir(), 'property-')), { numRuns: 20 });
  return { settings, seed: 7 } as unknown as ProbeContext;
}

test('a property with a skipped value keeps the runs it judged; one whose every value is skipped ends skipped', async () => {
  const judged: number[] = [];
  // Every third value leaves nothing to judge: the others are judged and pass.
  await checkProperty(propertyContext(), 'test.property', {
    arbitrary: fc.integer({ min: 0, max: 1000 }),
    requestsPerRun: 1,
    budgetShare: 1,
    runsInOrder: true,
    predicate: async (n) => {
      if (judged.length % 3 === 1 && !judged.includes(-1)) {
        judged.push(-1);
        throw new SkipCheck(`nothing to judge for ${n}`);
      }
      judged.push(n);
    },
  });
  expect(judged.filter((n) => n >= 0).length).toBeGreaterThan(10);
  await expect(
    checkProperty(propertyContext(), 'test.property', {
      arbitrary: fc.integer(),
      requestsPerRun: 1,
      budgetShare: 1,
      predicate: async () => {
        throw new SkipCheck('no value can be judged');
      },
    }),
  ).rejects.toThrow('no value can be judged');
});
