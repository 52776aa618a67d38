import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ConformanceReport } from '../../reports/model.ts';

/** A decision of the ledger (spec/readings.yaml `decisions`): one question, one answer applied alike. */
export interface Decision {
  id: string;
  question: string;
  words: Array<{ section: string; quote: string }>;
  decision: string;
  requirements: string[];
  conform: string[];
  fail: Array<{ fault: string; requirement: string }>;
  retired: string[];
}

export interface Reading {
  id: string;
  verdict: 'conform' | 'observe' | 'fail';
  variant?: string;
  fault?: string;
}

export const LEDGER = parse(readFileSync(new URL('../../spec/readings.yaml', import.meta.url), 'utf8')) as {
  decisions: Decision[];
  readings: Reading[];
};

/**
 * What a run of a conformant variant owes the decisions that allow it (their `conform`): none of a
 * decision's requirements failed, its SHOULDs included. The self-test judges every variant's runs by it
 * (test/self-test.test.ts), the run that test/ledger.test.ts's statement of the ledger rests on.
 */
export function decisionProblems(variant: string, report: ConformanceReport): string[] {
  const failed = new Map(report.requirements.filter((r) => r.status === 'fail').map((r) => [r.id, r]));
  return LEDGER.decisions
    .filter((d) => d.conform.includes(variant))
    .flatMap((d) =>
      d.requirements
        .filter((id) => failed.has(id))
        .map((id) => `decision ${d.id} allows ${variant}, yet ${id} failed: ${failed.get(id)!.reason ?? ''}`),
    );
}
