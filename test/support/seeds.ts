import { DEFAULTS, type RunSettings } from '../../core/run/run-settings.ts';
import type { ConformanceReport } from '../../reports/model.ts';

/** Seeds every variant is judged on: a reading must be accepted whatever the seed (rule "Verdicts in both directions"). */
export const SEEDS = [1, 2, 3, 4, 5];

/**
 * Seeds 2 and 4 run one request at a time (--concurrency 1), the others at the default: where every
 * seed must give the same statuses, that is also the same statuses at both concurrencies.
 */
export function seedSettings(seed: number): Partial<RunSettings> {
  return { seed, concurrency: seed % 2 === 0 ? 1 : DEFAULTS.concurrency };
}

/** Every MUST and SHOULD requirement's status, for comparing two runs of one target. */
export function statusesOf(report: ConformanceReport): string {
  return JSON.stringify(report.requirements.filter((r) => r.level !== 'UNSPECIFIED').map((r) => [r.id, r.status]));
}

/**
 * Faults of the self-test's sample whose verdict across SEEDS test/walks.test.ts holds, beside its tests
 * that make the same runs (on seeds 1 to 10 at both concurrencies).
 */
export const ONE_VERDICT_IN_WALKS: readonly string[] = ['files-last-id-loses-file-near-start'];
