/**
 * Targets on which the suite fails every check it can judge, for the bench's "a failing target costs
 * about what a conformant one costs": a loopback server that answers every request with 200 and an
 * HTML page (what a misrouted proxy or a login page gives), and the reference given a key it rejects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReferenceServer } from '../reference/options.ts';
import { referenceKeyEnv, referenceTargetYaml, REFERENCE_KEY_ENV } from '../reference/target-file.ts';

export interface BenchTarget {
  baseUrl: string;
  /** The target file's text (keys as ${VAR}). */
  yaml: string;
  /** The environment that holds its keys. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html>\n<html><head><title>Sign in</title></head><body><form method="post"><input name="user"></form></body></html>\n';

/**
 * 200 text/html to everything, on 127.0.0.1, described by the reference's target file with its base
 * URLs pointed here (so every field the checks read is set, as on a real deployment).
 */
export async function startHtmlTarget(reference: ReferenceServer): Promise<BenchTarget> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(PAGE) });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}/v1`;
  const yaml = referenceTargetYaml(reference)
    .replace(/^baseUrl: .*$/m, `baseUrl: ${baseUrl}`)
    .replace(/^(\s*regionalBaseUrl: ).*$/m, `$1${JSON.stringify(`${origin}/regional/v1`)}`);
  return {
    baseUrl,
    yaml,
    env: referenceKeyEnv(reference),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The reference with keys it never issued: the preflight names the rejected key (exit 2). Its keys
 * have variables of their own, so one environment serves it and the reference side by side.
 */
export function rejectedKeyTarget(reference: ReferenceServer): BenchTarget {
  const yaml = referenceTargetYaml(reference)
    .replace(`\${${REFERENCE_KEY_ENV.apiKey}}`, '${BENCH_REJECTED_API_KEY}')
    .replace(`\${${REFERENCE_KEY_ENV.restrictedApiKey}}`, '${BENCH_REJECTED_RESTRICTED_KEY}');
  return {
    baseUrl: reference.baseUrl,
    yaml,
    env: {
      BENCH_REJECTED_API_KEY: 'sk-bench-rejected-management-key-0000',
      BENCH_REJECTED_RESTRICTED_KEY: 'sk-bench-rejected-restricted-key-0000',
    },
    close: async () => undefined,
  };
}
