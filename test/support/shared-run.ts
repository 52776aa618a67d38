import type { RunSettings } from '../../core/run/run-settings.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import type { ConformanceReport } from '../../reports/model.ts';
import { runEngineAgainst } from './harness.ts';

/** The runs made so far in this worker process, by their inputs: each made once, read by every test that needs it. */
const runs = new Map<string, Promise<ConformanceReport>>();

/** `value` as JSON with its members in one order, whatever order the caller wrote them in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The whole suite's in-process run (runEngineAgainst) against a reference with `options`, under
 * `settings`, made once per worker process: tests that make the same run (same target, settings and
 * seed) read one report. The run is a function of these inputs (rule "Verdicts in both directions":
 * the same seed gives the same run), so a test reading it proves what a run of its own would. Each
 * caller gets its own copy: what one test changes in it no other sees. Tests that share runs are
 * grouped to run in one worker (test.describe.configure mode 'default'), else a run is made again in
 * the other worker.
 */
export async function sharedEngineRun(
  options: Partial<ReferenceOptions>,
  settings: Partial<RunSettings>,
): Promise<ConformanceReport> {
  const key = canonical({ options, settings });
  let run = runs.get(key);
  if (!run) {
    run = runEngineAgainst(options, { settings });
    runs.set(key, run);
    // A run that failed is not kept: the next test makes it again and sees the error itself.
    run.catch(() => runs.delete(key));
  }
  return structuredClone(await run);
}
