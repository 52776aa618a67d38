import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../../core/check/check.ts';
import { sendPlan } from '../../playwright/engine-socket.ts';
import { ENGINE_SOCKET_ENV } from '../../playwright/playwright-tests.ts';
import { terminalSafe } from '../../core/text/terminal-text.ts';
import { isGating } from '../../core/check/gating.ts';
import { RUN_ENV, type RunnerEnv } from '../prepare-run.ts';
import { currentHost } from './current-host.ts';

/**
 * The run's own reporter, first among the reporters. It hands the engine Playwright's selection as
 * soon as it is known (--grep, --shard), so the checks run while the worker starts. And it makes a
 * failing check's result failed for every reporter after it and for the exit code, without the test
 * throwing: in Playwright a test that throws costs a new worker process, and a target that fails
 * every check would cost a worker start-up per check.
 */
export default class HostReporter implements Reporter {
  onBegin(config: FullConfig, suite: Suite): void {
    const plan = suite.allTests().map((t) => t.annotations.find((a) => a.type === 'check')?.description ?? t.title);
    const shard = config.shard && config.shard.total > 1 ? `${config.shard.current}/${config.shard.total}` : undefined;
    const host = currentHost();
    if (host) {
      host.reporterActive = true;
      if (shard) host.shard = shard;
      host.selection = plan;
      host.plan(plan);
      return;
    }
    // The engine runs in the command's process (cli/conformance.ts): the selection travels over its socket.
    const socket = process.env[ENGINE_SOCKET_ENV];
    if (socket)
      sendPlan(socket, { plan, ...(shard ? { shard } : {}) }).catch((e: unknown) =>
        process.stderr.write(
          `conformance: the run's engine did not take Playwright's selection: ${terminalSafe(String((e as Error)?.message ?? e))}\n`,
        ),
      );
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    const body = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT)?.body;
    if (!body || result.status !== 'passed') return;
    const outcome = JSON.parse(body.toString('utf8')) as CheckOutcome;
    if (outcome.status !== 'fail' && outcome.status !== 'error') return;
    // The verdict's rule: a SHOULD failure under fail-on must stays passed, with the test's warning annotation.
    if (!isGating(outcome, this.failOn())) return;
    const message = `${outcome.status === 'fail' ? 'FAIL' : 'ERROR'} ${outcome.reason ?? ''}`;
    result.status = 'failed';
    result.error = { message };
    result.errors = [{ message }];
  }

  private failOn(): 'must' | 'should' {
    const raw = process.env[RUN_ENV];
    return currentHost()?.run.settings.failOn ?? (raw ? (JSON.parse(raw) as RunnerEnv).settings.failOn : 'must');
  }

  printsToStdio(): boolean {
    return false;
  }
}
