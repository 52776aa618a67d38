/**
 * Every 200 page of list interns the run receives, whichever check fetched it, judged by what one
 * page obeys on its own (principle 2): 8 "Page size 1 to 500" whatever was asked, the default page
 * included; 2.6 "Newest first" within the page; and
 * with the management key, 4.3 "The API key selects the caller, the workspace and the visible
 * interns": every intern listed is of the key's workspace (the target file's interns.workspaceId).
 * The page size asked is not judged here: its parameter's name is the target file's (4.3 "Names of
 * these three query parameters: not shown"), and a name the server does not know is the file's
 * mistake, which the interns checks name as such (interns.limit.respected is theirs).
 */
import type { Finding, ResponseJudge, SeenResponse } from '../../core/judge.ts';
import { arrayAt } from './records.ts';
import { isObject } from '../support/values.ts';

const MAX_PAGE = 500;

/** Every rule of one interns page that it breaks, each once (its first violation): a page broken two ways fails both. */
export function internPageViolations(response: Pick<SeenResponse, 'json' | 'interns'>): Array<{ requirementId: string; message: string; position?: number }> {
  const found: Array<{ requirementId: string; message: string; position?: number }> = [];
  const data = arrayAt(response.json, 'data');
  if (data.length > MAX_PAGE) found.push({ requirementId: 'interns.limit.maximum', message: `page holds ${data.length} interns, more than 500 (8 "Page size 1 to 500")` });
  let previous: number | undefined;
  for (const [i, intern] of data.entries()) {
    const at = isObject(intern) && typeof intern.createdAt === 'string' ? Date.parse(intern.createdAt) : NaN;
    // An unreadable createdAt is interns.intern.timestamps' (the record judge), not an order.
    if (Number.isNaN(at)) continue;
    if (previous !== undefined && at > previous) {
      found.push({ requirementId: 'interns.order.newest-first', message: `data[${i}].createdAt ${JSON.stringify((intern as { createdAt: string }).createdAt)} is newer than the intern listed before it (2.6 "Newest first")`, position: i });
      break;
    }
    previous = at;
  }
  const workspace = response.interns?.keyWorkspace;
  const foreign = workspace === undefined ? undefined : keyWorkspaceViolation(response.json, workspace);
  if (foreign) found.push(foreign);
  return found;
}

/** The first intern of a page listed to the management key that is of another workspace than the key's (UUIDs compared case-insensitively). */
export function keyWorkspaceViolation(json: unknown, keyWorkspace: string): { requirementId: string; message: string; position: number } | undefined {
  const workspace = keyWorkspace.toLowerCase();
  for (const [i, intern] of arrayAt(json, 'data').entries()) {
    const ws = isObject(intern) ? intern.workspaceId : undefined;
    if (typeof ws === 'string' && ws.toLowerCase() !== workspace) {
      return { requirementId: 'interns.intern.workspace-of-key', message: `data[${i}] is of workspace ${JSON.stringify(ws)}, not the key's ${JSON.stringify(keyWorkspace)} (4.3 "The API key selects the caller, the workspace and the visible interns")`, position: i };
    }
  }
  return undefined;
}

export const internPagesJudge: ResponseJudge = {
  id: 'interns.pages',
  requirements: ['interns.limit.maximum', 'interns.order.newest-first', 'interns.intern.workspace-of-key'],
  judge(response): Finding[] {
    if (response.operation !== 'listInterns' || response.status !== 200) return [];
    return internPageViolations(response).map((broken) => ({ requirementId: broken.requirementId, message: broken.message, exchange: response.exchange, ...(broken.position !== undefined ? { position: broken.position } : {}), dedupeKey: `${broken.requirementId}:page` }));
  },
};
