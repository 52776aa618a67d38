import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../../core/check.ts';
import { Mask, secretsOf } from '../../core/mask.ts';
import { terminalSafe } from '../../core/terminal-text.ts';
import { CHECK_LIST_ENV, type CheckListing } from '../../core/playwright-tests.ts';
import { currentHost, runnerKeys } from './current-host.ts';

const MARK: Record<CheckOutcome['status'], string> = { pass: 'pass ', fail: 'FAIL ', error: 'ERROR', skip: 'skip ' };
const COLOUR: Record<CheckOutcome['status'], string> = { pass: '32', fail: '31;1', error: '33;1', skip: '90' };
/** Each check's level, from the listing the global set-up published (the runner loads no check module). */
let levels: Map<string, string> | undefined;
function levelOf(id: string): string {
  const listed = process.env[CHECK_LIST_ENV];
  levels ??= listed ? new Map((JSON.parse(listed) as CheckListing[]).map((c) => [c.id, c.level ?? ''])) : undefined;
  return levels?.get(id) ?? '';
}

/**
 * One line per check on the console: no stack traces, no bodies (those are in the report). Every
 * string from the target is masked and its control characters shown escaped (principle 4). Colour
 * and a progress line only on a terminal, and never with NO_COLOR set (no-color.org).
 */
export default class ConsoleReporter implements Reporter {
  private total = 0;
  private done = 0;
  private readonly started = Date.now();
  private readonly tty = !!process.stdout.isTTY;
  private readonly colour = this.tty && !process.env['NO_COLOR'];
  private mask = new Mask([]);

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    // The engine may live in the command's process: its keys came over the socket (global set-up).
    const host = currentHost();
    this.mask = new Mask(host ? secretsOf(host.run.target) : runnerKeys());
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.done++;
    const body = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT)?.body;
    const outcome = body ? (JSON.parse(body.toString('utf8')) as CheckOutcome) : undefined;
    const status = outcome?.status ?? (result.status === 'skipped' ? 'skip' : 'error');
    const reason = outcome?.reason ?? (result.status === 'timedOut' ? 'did not finish in time' : result.error?.message?.split('\n')[0]);
    const level = status === 'fail' ? ` ${levelOf(test.title)}` : '';
    const text = terminalSafe(this.mask.text(reason && status !== 'pass' ? ` — ${reason}` : ''));
    const mark = this.colour ? `\x1b[${COLOUR[status]}m${MARK[status]}\x1b[0m` : MARK[status];
    const clear = this.tty ? '\r\x1b[K' : '';
    process.stdout.write(`${clear}  ${mark}${level} ${terminalSafe(test.title)}${text}\n`);
    if (this.tty) process.stdout.write(`  [${this.done}/${this.total}] ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
  }

  onError(error: { message?: string }): void {
    process.stdout.write(`  ERROR ${terminalSafe(this.mask.text(error.message?.split('\n')[0] ?? 'unknown error'))}\n`);
  }

  onEnd(): void {
    if (this.tty) process.stdout.write('\r\x1b[K');
  }

  printsToStdio(): boolean {
    return true;
  }
}
