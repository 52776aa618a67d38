/**
 * Schemathesis 4.x (PyPI, in a venv under .cache/peers), given spec/openapi.yaml, the base URL and the
 * management key, with every check (`--checks all`), a fixed seed and a bounded number of examples
 * per operation. Python runs the peer only; nothing of the product is written in it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tail } from '../run.ts';
import { exists, install, PEERS_DIR, SPEC, type PeerTool } from './peer.ts';

const VENV = join(PEERS_DIR, 'venv');
const BIN = join(VENV, 'bin', 'schemathesis');
const PY = join(VENV, 'bin', 'python');

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

/** `<testcase name="GET /interns">` with `<failure>`/`<error>` texts listing `- ST202 Title` lines. */
export function junitFailures(xml: string): string[] {
  const out: string[] = [];
  for (const tc of xml.matchAll(/<testcase name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const op = unescapeXml(tc[1] ?? '');
    const body = tc[2] ?? '';
    for (const f of body.matchAll(/<(failure|error)\b([^>]*)>([\s\S]*?)<\/\1>/g)) {
      const kind = f[1]!;
      const text = unescapeXml(f[3] ?? '');
      const titles = [...text.matchAll(/^- (.+)$/gm)].map((t) => t[1]!.trim());
      if (titles.length === 0)
        titles.push(
          unescapeXml(/message="([^"]*)"/.exec(f[2] ?? '')?.[1] ?? kind)
            .split('\n')[0]!
            .slice(0, 120),
        );
      for (const t of new Set(titles)) out.push(`${op}: ${kind === 'error' ? 'error: ' : ''}${t}`);
    }
  }
  return out;
}

export function schemathesis(maxExamples: number, seed: number, workers = 1): PeerTool {
  return {
    name: workers === 1 ? 'Schemathesis' : `Schemathesis, ${workers} workers`,
    configuration: `schemathesis run spec/openapi.yaml --url <base> -H 'Authorization: Bearer <key>' --checks all --max-examples ${maxExamples} --seed ${seed} --generation-database none (default phases: examples, coverage, fuzzing, stateful; ${workers} worker${workers === 1 ? '' : 's'})`,

    async ensure(allowInstall) {
      if (!exists(BIN) && allowInstall) {
        const err =
          (await install('python venv', ['python3', '-m', 'venv', VENV])) ??
          (await install('schemathesis', [
            join(VENV, 'bin', 'pip'),
            'install',
            '--disable-pip-version-check',
            '-q',
            'schemathesis>=4,<5',
          ]));
        if (err) return { ok: false, reason: err };
      }
      if (!exists(BIN)) return { ok: false, reason: `not installed (${BIN} missing; run without --no-install)` };
      try {
        const version = execFileSync(PY, ['-c', 'import importlib.metadata as m; print(m.version("schemathesis"))'], {
          encoding: 'utf8',
          timeout: 30_000,
        }).trim();
        return { ok: true, version };
      } catch (e) {
        return { ok: false, reason: `installed but cannot run: ${(e as Error).message.split('\n')[0]}` };
      }
    },

    argv: (baseUrl, apiKey, dir) => [
      BIN,
      'run',
      SPEC,
      '--url',
      baseUrl,
      '-H',
      `Authorization: Bearer ${apiKey}`,
      '--checks',
      'all',
      '--max-examples',
      String(maxExamples),
      '--seed',
      String(seed),
      '--generation-database',
      'none',
      '--no-color',
      '--workers',
      String(workers),
      '--report',
      'junit',
      '--report-junit-path',
      join(dir, 'junit.xml'),
    ],

    read(r, dir) {
      if (!existsSync(join(dir, 'junit.xml')))
        return {
          failures: [],
          problem: `no JUnit report (exit ${r.code}${r.timedOut ? ', killed at the cap' : ''}): ${tail(r, 3)}`,
        };
      const failures = junitFailures(readFileSync(join(dir, 'junit.xml'), 'utf8'));
      if (r.code !== 0 && failures.length === 0)
        return {
          failures,
          problem: `exit ${r.code} without a failure in the JUnit report: ${r.stdout
            .split('\n')
            .filter((l) => /error/i.test(l))
            .slice(0, 2)
            .join(' / ')
            .slice(0, 300)}`,
        };
      return { failures };
    },
  };
}
