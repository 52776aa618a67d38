import { Client } from '../core/client.ts';
import { CannotJudge } from '../core/errors.ts';
import { RequestLog } from '../core/request-log.ts';
import type { RunSettings } from '../core/run-settings.ts';
import type { Target } from '../core/target.ts';
import { NodeTransport, TransportError, type Transport } from '../core/transport.ts';

/**
 * One GET on a documented path before the suite starts, so an unreachable target is one clear line
 * (exit 2) within the request time-out, not a report full of errors. Any HTTP answer counts as reachable,
 * even one whose body then breaks (over the cap, reset): the checks report that as the target's doing.
 */
export async function preflight(target: Target, settings: RunSettings): Promise<string | undefined> {
  const node = new NodeTransport({ timeoutMs: settings.requestTimeoutMs, bodyCapBytes: settings.bodyCapBytes });
  let answered = false;
  const transport: Transport = {
    get: (url, headers) =>
      node.get(url, headers).catch((e: unknown) => {
        if (e instanceof TransportError && e.answered) answered = true;
        throw e;
      }),
    close: () => node.close(),
  };
  const client = new Client(target, { ...settings, maxRetries: 0 }, transport, new RequestLog(settings.runDir));
  client.check = 'preflight';
  try {
    await client.listModelEndpoints(target.modelEndpoints.model);
    return undefined;
  } catch (e) {
    if (e instanceof CannotJudge && e.reason === 'transport' && !answered) return e.message.replace(/^GET \S+: /, '');
    return undefined;
  } finally {
    await transport.close();
  }
}
