import type { Query } from '../../core/client.ts';
import type { TargetView } from '../../core/target.ts';

/** 4.3: the query parameter names are not shown; the target file names them (interns.params). */
export function internsQuery(target: TargetView, q: { limit?: string | number; status?: string; workspace?: string }): Query {
  const names = target.interns.params;
  if (!names) throw new Error('interns.params is not set in the target file');
  const out: Query = {};
  if (q.limit !== undefined) out[names.limit] = q.limit;
  if (q.status !== undefined) out[names.status] = q.status;
  if (q.workspace !== undefined) out[names.workspace] = q.workspace;
  return out;
}

/** `needs` of every check that sends an interns query parameter. */
export function needsInternsParams(target: TargetView): string | undefined {
  return target.interns.params ? undefined : 'interns.params is not set in the target file (the names are not shown in 4.3)';
}
