import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConformanceRunError, runConformance } from '../../cli/api.ts';
import { judgeRecording, loadRecording, type Recording } from '../../cli/offline-judge.ts';
import { belongingProblems, loadReportFile } from '../../cli/verify-recording.ts';
import { requirement } from '../../core/document/catalogue.ts';
import { FAULTS } from '../../reference/faults/index.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import { CONFORMANT_VARIANTS } from '../../reference/variants.ts';
import type { ConformanceReport } from '../../reports/model.ts';

/** The seeds every target of the catalogue is judged again on: one recording per seed. */
export const JUDGE_SEEDS = [1, 7, 1234] as const;

/** One target of the catalogue: the reference, a fault or a conformant variant. */
export interface JudgeCase {
  name: string;
  options: Partial<ReferenceOptions>;
  /** A fault that breaks SHOULD requirements only is run under --fail-on should, so its verdict says it. */
  failOn: 'must' | 'should';
}

/** The reference, every fault and every conformant variant, in the catalogue's order. */
export function judgeCases(): JudgeCase[] {
  return [
    { name: 'reference', options: {}, failOn: 'must' },
    ...FAULTS.map(
      (f): JudgeCase => ({
        name: `fault ${f.name}`,
        options: { faults: [f.name] },
        failOn: f.breaks.some((id) => requirement(id).level === 'MUST') ? 'must' : 'should',
      }),
    ),
    ...CONFORMANT_VARIANTS.map((v): JudgeCase => ({ name: `variant ${v.name}`, options: v.options, failOn: 'must' })),
  ];
}

export interface JudgedAgain {
  live?: ConformanceReport;
  offline?: ConformanceReport;
  /** The live run could not be made (exit 2: a preflight that refuses the target): no recording to judge. */
  runError?: string;
  /** Where the offline judgement is not the live run's, one line each; empty when they agree. */
  differences: string[];
}

/**
 * What an offline judgement says that the live run did not: another verdict, another status of a
 * requirement, and any check that asked what the recording does not hold (on a faithful replay of the
 * run's own recording, the engine asks what it asked live: nothing is missing).
 */
export function differencesOf(live: ConformanceReport, offline: ConformanceReport): string[] {
  const out: string[] = [];
  if (offline.verdict !== live.verdict) out.push(`verdict: live ${live.verdict}, offline ${offline.verdict}`);
  const was = new Map(live.requirements.map((r) => [r.id, r.status]));
  for (const r of offline.requirements)
    if (was.get(r.id) !== r.status) out.push(`${r.id}: live ${was.get(r.id) ?? 'absent'}, offline ${r.status}`);
  for (const c of offline.checks) if (c.reason?.includes('not in the recording')) out.push(`${c.checkId}: ${c.reason}`);
  return out;
}

/**
 * A live run of the suite against the reference started with the case's options (the command line's
 * run, in this process: over HTTP, evidence.har written to its report directory), then that recording
 * judged again as `conformance judge` judges it (cli/offline-judge.ts), the reference stopped first so
 * that no answer can come from it.
 */
export async function judgeAgain(c: JudgeCase, seed: number): Promise<JudgedAgain> {
  const dir = mkdtempSync(join(tmpdir(), 'judge-again-'));
  const server = await startReference(c.options);
  try {
    const file = join(dir, 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const reportDir = join(dir, 'report');
    let live: ConformanceReport;
    try {
      live = await runConformance({ target: file, env: referenceKeyEnv(server), seed, failOn: c.failOn, reportDir });
    } catch (e) {
      if (e instanceof ConformanceRunError) return { runError: e.message, differences: [] };
      throw e;
    }
    await server.close();
    const rec = loadRecording(join(reportDir, 'evidence.har'));
    // verify's part that does not judge again (cli/verify-recording.ts): the report written beside the
    // recording and the recording belong together; the judging again is the offline run below.
    const written = loadReportFile(join(reportDir, 'report.json'));
    const verify = belongingProblems(written, rec).map((d) => `verify: ${d}`);
    const offline = await judgeRecording(rec);
    return {
      live,
      offline,
      differences: [...differencesOf(live, offline), ...verify, ...changedByteNamed(written, rec)],
    };
  } finally {
    await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One byte of the first answer with a body changed: verify names that entry, by its index and URL. */
function changedByteNamed(report: ConformanceReport, rec: Recording): string[] {
  const at = rec.log.entries.findIndex((e) => (e.response.content.text ?? '').length > 0);
  if (at < 0) return [];
  const entry = rec.log.entries[at]!;
  const text = entry.response.content.text!;
  entry.response.content.text = `${text[0] === '{' ? '[' : '{'}${text.slice(1)}`;
  const named = `entry ${at} (GET ${entry.request.url}) is not the one the report names`;
  return belongingProblems(report, rec).includes(named) ? [] : [`verify: a changed byte of entry ${at} not named`];
}
