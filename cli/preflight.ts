import { Client } from '../core/client.ts';
import { CannotJudge } from '../core/errors.ts';
import type { RunSettings } from '../core/run-settings.ts';
import type { Target } from '../core/target.ts';
import { NodeTransport, TransportError, type Transport } from '../core/transport.ts';

export interface Preflight {
  /** Why the run cannot be made (one line, exit 2), or undefined. */
  fatal?: string;
  /** Requests sent: they count against the run's budget. */
  requests: number;
}

/**
 * One authenticated GET per operation before the suite starts, so the causes that would turn every
 * check into a failure are named as what they are, within seconds (principle 3: a rejected key is
 * not a faulty server): an unreachable target, a key every operation rejects (5 rules 2-3), and a
 * base URL under which no documented path exists (9 rule 1: it must end with /v1).
 * Any HTTP answer counts as reachable; the checks judge what the answers hold.
 */
export async function preflight(target: Target, settings: RunSettings): Promise<Preflight> {
  const node = new NodeTransport({ timeoutMs: settings.requestTimeoutMs, bodyCapBytes: settings.bodyCapBytes });
  let answered = false;
  const transport: Transport = {
    get: (url, headers) =>
      node.get(url, headers).then(
        (r) => {
          answered = true;
          return r;
        },
        (e: unknown) => {
          if (e instanceof TransportError && e.answered) answered = true;
          throw e;
        },
      ),
    close: () => node.close(),
  };
  const client = new Client(target, { ...settings, maxRetries: 0 }, transport);
  client.check = 'preflight';
  const statuses: Array<number | undefined> = [];
  try {
    const sends = [
      () => client.listContainerFiles(target.containerFiles.containerId, { limit: 1 }),
      () => client.listModelEndpoints(target.modelEndpoints.model),
      () => client.listInterns({}),
    ];
    for (const send of sends) {
      try {
        statuses.push((await send()).status);
      } catch (e) {
        if (e instanceof CannotJudge && e.reason === 'transport' && !answered) {
          return { fatal: `target ${target.baseUrl} is unreachable: ${e.message.replace(/^GET \S+: /, '')}`, requests: client.log.count };
        }
        statuses.push(undefined);
      }
    }
  } finally {
    await transport.close();
  }
  const all = (pred: (s: number) => boolean) => statuses.every((s) => s !== undefined && pred(s));
  const key = target.apiKeyVariable ? `apiKey (from $${target.apiKeyVariable})` : 'apiKey';
  if (all((s) => s === 401 || s === 403)) {
    return { fatal: `${key} was rejected by every operation (${statuses.join(', ')}): check the key, not the server`, requests: client.log.count };
  }
  if (all((s) => s === 404)) {
    return { fatal: `no operation found under baseUrl ${target.baseUrl} (404 on every documented path): does it end with /v1? (section 9 rule 1)`, requests: client.log.count };
  }
  return { requests: client.log.count };
}
