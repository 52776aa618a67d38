import { checkSeed, type CheckDeclaration, type CheckOutcome, type ProbeContext } from './check.ts';
import type { Client } from './client.ts';
import { curlCommand } from './curl.ts';
import { conform } from './expect.ts';
import { CannotJudge, ConformanceFailure, SkipCheck } from './errors.ts';
import type { Exchange } from './evidence.ts';
import type { RunSettings } from './run-settings.ts';
import type { TargetView } from './target.ts';

/**
 * Runs one check's probe and classifies what happened: a ConformanceFailure is the target's `fail`;
 * CannotJudge is `error` (or `skip` when the budget is spent); anything else is a suite `error`.
 * Used by the Playwright tests and, directly, by the suite's own tests.
 */
export async function executeCheck(check: CheckDeclaration, client: Client, target: TargetView, settings: Readonly<RunSettings>): Promise<CheckOutcome> {
  const seed = checkSeed(settings.seed, check.id);
  const before = client.log.count;
  client.check = check.id;
  client.exchanges.length = 0;
  const outcome: CheckOutcome = { checkId: check.id, status: 'pass', failures: [], observations: [], requests: 0, seed };
  const ctx: ProbeContext = {
    api: client,
    target,
    settings,
    seed,
    observe: (requirementId, value) => {
      if (!check.requirements.includes(requirementId)) throw new Error(`${check.id} observes ${requirementId}, which it does not declare`);
      outcome.observations.push({ requirementId, value });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    conform: (condition, message, res, requirementId = check.requirements[0]!) => {
      if (!check.requirements.includes(requirementId)) throw new Error(`${check.id} fails ${requirementId}, which it does not declare`);
      conform(condition, requirementId, message, res);
    },
  };
  try {
    const missing = check.needs?.(target);
    if (missing) throw new SkipCheck(missing);
    await check.probe(ctx);
  } catch (e) {
    if (e instanceof SkipCheck) {
      outcome.status = 'skip';
      outcome.reason = e.message;
    } else if (e instanceof ConformanceFailure) {
      outcome.status = 'fail';
      outcome.reason = e.message;
      const exchanges = e.exchanges.length ? [...e.exchanges] : client.exchanges.slice(-1);
      const last = exchanges[exchanges.length - 1];
      outcome.failures.push({
        requirementId: check.requirements.includes(e.requirementId) ? e.requirementId : check.requirements[0]!,
        message: e.message,
        exchanges,
        ...(last ? { curl: curlOf(last) } : {}),
        ...(e.counterexample ? { counterexample: e.counterexample } : {}),
      });
    } else if (e instanceof CannotJudge) {
      outcome.status = e.reason === 'budget' ? 'skip' : 'error';
      outcome.reason = e.message;
    } else {
      outcome.status = 'error';
      outcome.reason = `suite error: ${(e as Error)?.message ?? String(e)}`;
    }
  }
  outcome.requests = client.log.count - before;
  return outcome;
}

/** The reproduction command of a failure: the request as sent, with only the header that matters. */
function curlOf(exchange: Exchange): string {
  const auth = exchange.request.headers['authorization'];
  return curlCommand(exchange.request.url, auth === undefined ? {} : { authorization: auth });
}
