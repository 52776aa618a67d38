import type { AbsentField, ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse, Query } from '../../core/http/client.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import type { TargetView } from '../../core/target/target.ts';
import { isObject } from './values.ts';

/** 4.3: the query parameter names are not shown; the target file names them (interns.params). */
export function internsQuery(
  target: Pick<TargetView, 'interns'>,
  q: { limit?: string | number; status?: string; workspace?: string },
): Query {
  const names = target.interns.params;
  if (!names) throw new Error('interns.params is not set in the target file');
  const out: Query = {};
  if (q.limit !== undefined) out[names.limit] = q.limit;
  if (q.status !== undefined) out[names.status] = q.status;
  if (q.workspace !== undefined) out[names.workspace] = q.workspace;
  return out;
}

/** `needs` of every check that sends an interns query parameter. */
export function needsInternsParams(target: TargetView): AbsentField | undefined {
  return target.interns.params ? undefined : { field: 'interns.params', why: 'the names are not shown in 4.3' };
}

/** The objects of a 200 intern list, or undefined for any other answer (the schema checks judge those). */
function internsOf(res: ApiResponse): Array<Record<string, unknown>> | undefined {
  if (res.status !== 200 || !isObject(res.json) || !Array.isArray(res.json.data)) return undefined;
  return res.json.data.filter(isObject);
}

/**
 * 4.3 "Names of these three query parameters: not shown": the target file names them, and a server
 * that ignores unknown parameters gives no error when they are wrong. Two answers show it: a page size
 * of 1 not honoured AND a status filter ignored wholesale (the very interns of the unfiltered answer).
 * Then the checks that depend on the names cannot judge: they end as `error` (the run's verdict is
 * ERROR) with a hint, instead of failing MUST requirements the target may well meet.
 */
export async function confirmInternsParams(ctx: ProbeContext): Promise<void> {
  // Asked by every check that needs it: its requests go once to the target per run and are answered
  // from the run's memory after (core/http/client.ts), so each check sees the same answers whatever ran first.
  const wrong = await detectWrongNames(ctx);
  if (wrong) throw wrong;
}

async function detectWrongNames(ctx: ProbeContext): Promise<CannotJudge | undefined> {
  const names = ctx.target.interns.params;
  if (!names) return undefined;
  const plainRes = await ctx.api.listInterns({});
  const plain = internsOf(plainRes);
  // Fewer than two interns, or all in one state: neither parameter can show that it is ignored.
  const states = [...new Set((plain ?? []).map((i) => String(i.status)))];
  if (!plain || plain.length < 2 || states.length < 2) return undefined;
  const oneRes = await ctx.api.listInterns(internsQuery(ctx.target, { limit: 1 }));
  const one = internsOf(oneRes);
  if (!one || one.length <= 1) return undefined;
  const state = states[0]!;
  const filteredRes = await ctx.api.listInterns(internsQuery(ctx.target, { status: state }));
  const filtered = internsOf(filteredRes);
  const ids = (xs: ReadonlyArray<Record<string, unknown>>) => JSON.stringify(xs.map((i) => i.id));
  if (!filtered || ids(filtered) !== ids(plain)) return undefined;
  return new CannotJudge(
    'target-file',
    `${names.limit}=1 listed ${one.length} interns: are interns.params.limit/status right? (${names.status}=${state} listed the same ${plain.length} interns, of ${states.length} states, as no filter: the server seems to ignore both names)`,
    [oneRes.exchange, filteredRes.exchange],
  );
}
