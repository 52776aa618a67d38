import { expect, test } from '@playwright/test';
import { DEFAULTS } from '../core/run-settings.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { runEngineAgainst } from './support/harness.ts';

// Checks in flight together (--concurrency) share the run's budget, pace and memory; what a check
// concludes depends on the answers it receives, never on what ran beside it. So the verdict and every
// requirement's status are the same one request at a time and at the default concurrency, on the
// reference, on faults (those met only on a response some other check happened to receive among
// them: every 9th request answered 503 or 408) and on every conformant variant (the one answering
// every 7th request 408/429/503 among them).
test.describe.configure({ mode: 'parallel' });

function statuses(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries([['verdict', report.verdict], ...report.requirements.filter((r) => r.status !== 'disabled').map((r) => [r.id, r.status])]);
}

async function atBoth(options: Parameters<typeof runEngineAgainst>[0], seed: number): Promise<void> {
  const one = await runEngineAgainst(options, { settings: { seed, concurrency: 1 } });
  const many = await runEngineAgainst(options, { settings: { seed, concurrency: DEFAULTS.concurrency } });
  expect(DEFAULTS.concurrency).toBeGreaterThan(1);
  expect(statuses(many)).toEqual(statuses(one));
  // The same requests reach the target, in another order: the run's memory answers the same repeats.
  expect({ requests: many.run.requests, saved: many.run.requestsSaved }).toEqual({ requests: one.run.requests, saved: one.run.requestsSaved });
}

for (const seed of [1, 2, 3]) {
  test(`the reference: the same statuses at concurrency 1 and ${DEFAULTS.concurrency} (seed ${seed})`, async () => {
    await atBoth({}, seed);
  });
}

const SAMPLE = [...new Set([...FAULTS.filter((_, i) => i % 12 === 5).map((f) => f.name), 'files-503-code-500', 'interns-408-code-500'])];

for (const fault of SAMPLE) {
  test(`fault ${fault}: the same statuses at concurrency 1 and ${DEFAULTS.concurrency}`, async () => {
    await atBoth({ faults: [fault] }, 7);
  });
}

// Half the variants (the one with transient statuses always): the self-test judges every one of them.
for (const variant of CONFORMANT_VARIANTS.filter((v, i) => i % 2 === 0 || v.name === 'transient-statuses')) {
  test(`variant ${variant.name}: the same statuses at concurrency 1 and ${DEFAULTS.concurrency}`, async () => {
    await atBoth(variant.options, 11);
  });
}
