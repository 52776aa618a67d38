/**
 * Schemathesis 4.x (PyPI, in a venv under .cache/peers), given spec/openapi.yaml, the base URL and the
 * management key, with every check (`--checks all`), a fixed seed and a bounded number of examples
 * per operation. Python runs the peer only; nothing of the product is written in it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from '../spawn.ts';
import { exists, install, PEERS_DIR, SPEC, type PeerTool } from './peer.ts';

const VENV = join(PEERS_DIR, 'venv');
const BIN = join(VENV, 'bin', 'schemathesis');
const PY = join(VENV, 'bin', 'python');

function unescapeXml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');
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
      if (titles.length === 0) titles.push(unescapeXml(/message="([^"]*)"/.exec(f[2] ?? '')?.[1] ?? kind).split('\n')[0]!.slice(0, 120));
      for (const t of new Set(titles)) out.push(`${op}: ${kind === 'error' ? 'error: ' : ''}${t}`);
    }
  }
  return out;
}

export function schemathesis(maxExamples: number, seed: number): PeerTool {
  return {
    name: 'Schemathesis',
    configuration: `schemathesis run spec/openapi.yaml --url <base> -H 'Authorization: Bearer <key>' --checks all --max-examples ${maxExamples} --seed ${seed} --generation-database none (default phases: examples, coverage, fuzzing, stateful; 1 worker)`,

    async ensure(allowInstall) {
      if (!exists(BIN) && allowInstall) {
        const err =
          (await install('python venv', 'python3', ['-m', 'venv', VENV])) ??
          (await install('schemathesis', join(VENV, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-q', 'schemathesis>=4,<5']));
        if (err) return { ok: false, reason: err };
      }
      if (!exists(BIN)) return { ok: false, reason: `not installed (${BIN} missing; run without --no-install)` };
      try {
        const version = execFileSync(PY, ['-c', 'import importlib.metadata as m; print(m.version("schemathesis"))'], { encoding: 'utf8', timeout: 30_000 }).trim();
        return { ok: true, version };
      } catch (e) {
        return { ok: false, reason: `installed but cannot run: ${(e as Error).message.split('\n')[0]}` };
      }
    },

    async run(baseUrl, apiKey, capMs) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-st-'));
      try {
        const junit = join(dir, 'junit.xml');
        const args = ['run', SPEC, '--url', baseUrl, '-H', `Authorization: Bearer ${apiKey}`, '--checks', 'all', '--max-examples', String(maxExamples), '--seed', String(seed), '--generation-database', 'none', '--no-color', '--report', 'junit', '--report-junit-path', junit];
        const m = await measure(BIN, args, { cwd: dir, capMs, env: { PYTHONDONTWRITEBYTECODE: '1' } });
        let failures: string[] = [];
        let problem: string | undefined;
        if (readdirSync(dir).includes('junit.xml')) failures = junitFailures(readFileSync(junit, 'utf8'));
        else problem = `no JUnit report (exit ${m.code}${m.timedOut ? ', killed at the cap' : ''}): ${(m.stderr || m.stdout.map((l) => l.line).join('\n')).trim().split('\n').slice(-3).join(' / ').slice(0, 300)}`;
        if (!problem && m.code !== 0 && failures.length === 0) problem = `exit ${m.code} without a failure in the JUnit report: ${m.stdout.map((l) => l.line).filter((l) => /error|Error/.test(l)).slice(0, 2).join(' / ').slice(0, 300)}`;
        return { exitCode: m.code, timedOut: m.timedOut, wallMs: m.wallMs, failures, ...(m.cpuS !== undefined ? { cpuS: m.cpuS } : {}), ...(m.maxRssSingleKb !== undefined ? { maxRssSingleKb: m.maxRssSingleKb } : {}), ...(problem ? { problem } : {}) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
