/**
 * Dredd 14.1.0 (npm), given spec/openapi.yaml, the base URL and the management key. Dredd builds one
 * transaction per documented response (its OpenAPI 3 adapter, which warns that 3.1 is "not fully
 * supported"), sends the parameters' `example` values, and compares status, headers and body.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exists, install, numbered, PEERS_DIR, SPEC, type PeerTool } from './peer.ts';

const VERSION = '14.1.0';
const PREFIX = join(PEERS_DIR, 'dredd');
const BIN = join(PREFIX, 'node_modules', 'dredd', 'bin', 'dredd');

/** `pass: GET (200) /interns duration: 11ms`; the list is repeated after "Displaying failed tests". */
const RESULT = /^(pass|fail|skip|error): (GET \(\d+\) \S+)/;

export const dredd: PeerTool = {
  name: 'Dredd',
  configuration: `dredd ${VERSION}: \`dredd spec/openapi.yaml <base> --header 'Authorization: Bearer <key>'\`, every transaction of the document (default)`,

  async ensure(allowInstall) {
    if (!exists(BIN) && allowInstall) {
      const err = await install('dredd', [
        'npm',
        'install',
        '--prefix',
        PREFIX,
        '--no-audit',
        '--no-fund',
        `dredd@${VERSION}`,
      ]);
      if (err) return { ok: false, reason: err };
    }
    if (!exists(BIN)) return { ok: false, reason: `not installed (${BIN} missing; run without --no-install)` };
    const version = (
      JSON.parse(readFileSync(join(PREFIX, 'node_modules', 'dredd', 'package.json'), 'utf8')) as { version: string }
    ).version;
    return { ok: true, version };
  },

  argv: (baseUrl, apiKey) => [
    process.execPath,
    BIN,
    SPEC,
    baseUrl,
    '--header',
    `Authorization: Bearer ${apiKey}`,
    '--color',
    'false',
  ],

  read(r) {
    const results: Array<{ status: string; name: string }> = [];
    for (const line of `${r.stdout}\n${r.stderr}`.split('\n')) {
      if (line.startsWith('info: Displaying failed tests')) break;
      const m = RESULT.exec(line);
      if (m) results.push({ status: m[1]!, name: m[2]! });
    }
    // Numbered over all transactions (two `GET (200) /interns`: the 200 and the `default` response).
    const names = numbered(results.map((x) => x.name));
    const failures = names.filter((_, i) => results[i]!.status === 'fail' || results[i]!.status === 'error');
    if (results.length === 0)
      return {
        failures,
        problem: `no transaction ran: ${(r.stderr + r.stdout)
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('warn'))
          .slice(-3)
          .join(' / ')
          .slice(0, 300)}`,
      };
    return { failures };
  },
};

/** Dredd's transactions that expect a 2xx status (the ones a user keeps with `--only` or a hook). */
export function isDredd2xx(signature: string): boolean {
  return /^GET \(2\d\d\)/.test(signature);
}
