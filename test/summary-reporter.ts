import { catalogue } from '../core/document/catalogue.ts';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

interface MutationResult {
  kind: 'fault' | 'variant';
  name: string;
  operation: string;
  caught: boolean;
  /** A fault: the strongest level it breaks (a SHOULD-only fault is caught under --fail-on should). */
  level?: 'MUST' | 'SHOULD';
  /** A fault: the requirements of its `breaks` that failed; those not failed, and those failed undeclared. */
  shown?: string[];
  missing?: string[];
  extra?: string[];
  /** A variant: judged conformant, every MUST judged, on each seed. */
  seeds?: Record<string, boolean>;
}

/**
 * Prints the self-test's mutation score (from the `mutation-result` attachments of
 * test/self-test.test.ts) and then the closing line CI reads: `tests: N passed, N failed` (skipped tests, never counted as
 * passed, on the line before it).
 */
export default class SummaryReporter implements Reporter {
  private readonly outcome = new Map<TestCase, TestResult['status']>();
  private readonly mutations: MutationResult[] = [];
  private readonly skipReasons: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcome.set(test, result.status);
    if (result.status === 'skipped') {
      const why =
        [...result.annotations, ...test.annotations].find((a) => a.type === 'skip' || a.type === 'fixme')
          ?.description ?? 'no reason given';
      this.skipReasons.push(`  skipped: ${test.titlePath().slice(1).join(' › ')} — ${why}`);
    }
    for (const a of result.attachments) {
      if (a.name === 'mutation-result' && a.body)
        this.mutations.push(JSON.parse(a.body.toString('utf8')) as MutationResult);
    }
  }

  onEnd(result: FullResult): void {
    if (this.mutations.length) process.stdout.write(`${mutationTable(this.mutations)}\n`);
    let passed = 0,
      failed = 0,
      skipped = 0;
    for (const status of this.outcome.values()) {
      if (status === 'passed') passed++;
      else if (status === 'skipped') skipped++;
      else failed++;
    }
    // A run that broke before or after the tests (global setup, config error) is a failure too.
    if (result.status !== 'passed' && failed === 0) failed = 1;
    for (const line of this.skipReasons) process.stdout.write(`${line}\n`);
    if (skipped) process.stdout.write(`skipped: ${skipped} (each with its reason above; not counted as passed)\n`);
    process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}

export function mutationTable(results: readonly MutationResult[]): string {
  const faults = results.filter((r) => r.kind === 'fault');
  const variants = results.filter((r) => r.kind === 'variant').sort((a, b) => a.name.localeCompare(b.name));
  const ops = [...new Set(faults.map((f) => f.operation))].sort();
  const score = (list: readonly MutationResult[]) => `${list.filter((f) => f.caught).length} / ${list.length}`;
  const rows = ops.map((op) => {
    const of = faults.filter((f) => f.operation === op);
    return `| ${op} | ${score(of.filter((f) => f.level !== 'SHOULD'))} | ${score(of.filter((f) => f.level === 'SHOULD'))} |`;
  });
  const caught = faults.filter((f) => f.caught).length;
  const seeds = [...new Set(variants.flatMap((v) => Object.keys(v.seeds ?? {})))].sort((a, b) => Number(a) - Number(b));
  const lines = [
    '',
    'Mutation score (faults caught exactly by the whole suite: every requirement a fault names failed, and no other save those it declares with their reason; a SHOULD-only fault is caught under --fail-on should):',
    '',
    '| operation | MUST faults caught | SHOULD faults caught |',
    '|---|---|---|',
    ...rows,
    `| **all** | **${caught} / ${faults.length}** (${faults.length ? Math.round((100 * caught) / faults.length) : 0}%) | |`,
    '',
    `Conformant variants (readings and silent choices) judged conformant with every MUST judged: ${variants.filter((v) => !v.caught).length} / ${variants.length}`,
  ];
  // What the faults show: a MUST counts once a fault caught exactly has failed it (of the faults run).
  if (faults.length) {
    const shown = new Set(faults.filter((f) => f.caught).flatMap((f) => f.shown ?? []));
    const musts = catalogue().requirements.filter((r) => r.level === 'MUST');
    lines.splice(
      lines.length - 2,
      0,
      '',
      `MUST requirements shown failing by a fault caught exactly: ${musts.filter((r) => shown.has(r.id)).length} / ${musts.length}`,
    );
  }
  if (variants.length && seeds.length) {
    lines.push(
      '',
      `| variant | ${seeds.map((s) => `seed ${s}`).join(' | ')} |`,
      `|---|${seeds.map(() => '---').join('|')}|`,
    );
    for (const v of variants)
      lines.push(
        `| ${v.name} | ${seeds.map((s) => (v.seeds?.[s] === undefined ? '' : v.seeds[s] ? 'conformant' : '**FAILED**')).join(' | ')} |`,
      );
  }
  const missed = faults
    .filter((f) => !f.caught)
    .map(
      (f) =>
        `${f.name}${f.missing?.length ? ` (not failed: ${f.missing.join(', ')})` : ''}${f.extra?.length ? ` (failed undeclared: ${f.extra.join(', ')})` : ''}`,
    );
  const falseFailures = variants.filter((v) => v.caught).map((v) => v.name);
  if (missed.length) lines.push(`Faults not caught exactly: ${missed.join('; ')}`);
  if (falseFailures.length) lines.push(`Variants falsely failed: ${falseFailures.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
