import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { requirement } from '../../core/document/catalogue.ts';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../../core/check/check.ts';
import { Mask, secretsOf } from '../../core/text/mask.ts';
import { terminalSafe } from '../../core/text/terminal-text.ts';
import { RUN_ENV, type RunnerEnv } from '../prepare-run.ts';
import { currentHost, runnerKeys } from './current-host.ts';

type Mark = 'pass' | 'FAIL' | 'WARN' | 'ERROR' | 'skip' | 'note';
const MARK: Record<Mark, string> = {
  pass: 'pass ',
  FAIL: 'FAIL ',
  WARN: 'WARN ',
  ERROR: 'ERROR',
  skip: 'skip ',
  note: 'note ',
};
const COLOUR: Record<Mark, string> = { pass: '32', FAIL: '31;1', WARN: '33', ERROR: '33;1', skip: '90', note: '90' };

/** A requirement's level, or '' for an id the catalogue does not hold (never expected: a failure names a declared one). */
/** The document's words a requirement rests on, one `section: "quote"` each; none for an id of no catalogue. */
function documentWordsOf(requirementId: string): string[] {
  try {
    return (requirement(requirementId).basis ?? []).map((b) => `section ${b.section}: "${b.quote}"`);
  } catch {
    return [];
  }
}

function levelOf(requirementId: string): string {
  try {
    return requirement(requirementId).level;
  } catch {
    return '';
  }
}

/**
 * The console of a run: each finding said once, where it belongs (no stack traces, no bodies: those
 * are in the report).
 *
 * - A failing requirement is one line, the first time a check sees it, under the requirement's own
 *   level (not the check's), naming the check that saw it: `FAIL` when it gates the run, `WARN` for a
 *   SHOULD failure under --fail-on must (the verdict's rule, core/check/gating.ts).
 * - A check whose responses carried a finding already said (a whole-run judge: one bad record seen
 *   by every check that lists it) says so without FAIL, `pass` when its own probe completed.
 * - Skips for one reason (a deadline: every check left `not sent`) fold into one line with their
 *   count, said at the end of the run's lines (a skip for a reason of its own is said where it comes).
 *
 * Every string from the target is masked and its control characters shown escaped (rule "Hostile input").
 * Colour and a progress line only on a terminal, and never with NO_COLOR set (no-color.org).
 */
export default class ConsoleReporter implements Reporter {
  private total = 0;
  private done = 0;
  private readonly started = Date.now();
  private readonly tty = !!process.stdout.isTTY;
  private readonly colour = this.tty && !process.env['NO_COLOR'];
  private mask = new Mask([]);
  /** Requirements whose failure was printed (once per run): the check that said it and the messages seen. */
  private readonly said = new Map<string, { checkId: string; messages: Set<string> }>();
  /** Skips by reason, in order of their first check; said at the end, one line per reason. */
  private readonly skips = new Map<string, string[]>();

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
    const reason =
      outcome?.reason ??
      (result.status === 'timedOut' ? 'did not finish in time' : result.error?.message?.split('\n')[0]);
    const id = test.title;
    if (status === 'skip') {
      const why = reason ?? 'skipped';
      const ids = this.skips.get(why);
      if (ids) ids.push(id);
      else this.skips.set(why, [id]);
    } else {
      if (status === 'fail' && outcome) this.failure(id, outcome);
      else this.line(status === 'pass' ? 'pass' : 'ERROR', id, status === 'pass' ? undefined : reason);
    }
    if (this.tty)
      process.stdout.write(`  [${this.done}/${this.total}] ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
  }

  /**
   * A failed check: each requirement it is the first to fail, one line under that requirement's
   * level. A requirement said before is said again without FAIL: as a finding its responses carried
   * (the same message, a whole-run judge's), or as another finding of it, with its message.
   */
  private failure(checkId: string, outcome: CheckOutcome): void {
    const byRequirement = new Map<string, string[]>();
    for (const f of outcome.failures)
      byRequirement.set(f.requirementId, [...(byRequirement.get(f.requirementId) ?? []), f.message]);
    if (byRequirement.size === 0) return this.line('FAIL', checkId, outcome.reason);
    const carried: string[] = [];
    const again: Array<{ req: string; message: string }> = [];
    for (const [req, messages] of byRequirement) {
      const said = this.said.get(req);
      if (said) {
        const fresh = messages.find((m) => !said.messages.has(m));
        if (fresh === undefined) carried.push(req);
        else again.push({ req, message: `${fresh} (first said under ${said.checkId})` });
        for (const m of messages) said.messages.add(m);
        continue;
      }
      this.said.set(req, { checkId, messages: new Set(messages) });
      const level = levelOf(req);
      const gates = level === 'MUST' || level === '' || (level === 'SHOULD' && this.failOn() === 'should');
      const more = messages.length > 1 ? ` (+${messages.length - 1} more)` : '';
      this.line(
        gates ? 'FAIL' : 'WARN',
        `${level} ${req}`.trim(),
        `${messages[0]}${more} (check ${checkId}${gates ? '' : '; not gating without --fail-on should'})`,
      );
      // The document's own words under the finding: what the verdict rests on, not the suite's paraphrase.
      for (const words of documentWordsOf(req)) this.line('note', req, `the document, ${words}`);
    }
    const named = (r: string) => `${levelOf(r)} ${r}`.trim();
    for (const { req, message } of again) this.line('note', checkId, `${named(req)} again: ${message}`);
    if (carried.length && again.length === 0) {
      // A counterexample of its own (a property's shrunk input) is this check's to replay: said with it.
      const own = outcome.failures.find((f) => f.counterexample);
      this.line(
        outcome.probeCompleted ? 'pass' : 'note',
        checkId,
        `its responses carried the finding of ${carried.map(named).join(', ')}, said above${own ? `; its counterexample: ${own.message}` : ''}`,
      );
    }
  }

  private flushSkips(): void {
    for (const [reason, ids] of this.skips) {
      if (ids.length === 1) this.line('skip', ids[0]!, reason);
      else
        this.line(
          'skip',
          `${ids.length} checks`,
          `${reason} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`,
        );
    }
    this.skips.clear();
  }

  private line(mark: Mark, subject: string, reason: string | undefined): void {
    const text = terminalSafe(this.mask.text(reason ? ` — ${reason}` : ''));
    const shown = this.colour ? `\x1b[${COLOUR[mark]}m${MARK[mark]}\x1b[0m` : MARK[mark];
    const clear = this.tty ? '\r\x1b[K' : '';
    process.stdout.write(`${clear}  ${shown} ${terminalSafe(subject)}${text}\n`);
  }

  private failOn(): 'must' | 'should' {
    const raw = process.env[RUN_ENV];
    return currentHost()?.run.settings.failOn ?? (raw ? (JSON.parse(raw) as RunnerEnv).settings.failOn : 'must');
  }

  onError(error: { message?: string }): void {
    process.stdout.write(`  ERROR ${terminalSafe(this.mask.text(error.message?.split('\n')[0] ?? 'unknown error'))}\n`);
  }

  onEnd(): void {
    this.flushSkips();
    if (this.tty) process.stdout.write('\r\x1b[K');
  }

  printsToStdio(): boolean {
    return true;
  }
}
