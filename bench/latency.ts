/**
 * `npm run bench:latency`: the latency row. The independent server (bench/independent/) behind a
 * loopback proxy that holds every request 50 ms (bench/delay-proxy.ts: a deployment in another region),
 * and side by side in one hyperfine run: the compiled suite one request at a time (--concurrency 1)
 * and at its default, and Schemathesis with 1 and 4 workers. Each contender runs once first for its
 * verdict (the suite's report: verdict, requests sent, requests answered from the run's memory); the
 * timing and its statistics are hyperfine's (Debian's `hyperfine` package), written to
 * bench/out/latency.json and printed as a Markdown table.
 *
 *   npm run bench:latency -- [--delay 50] [--runs 3] [--no-peers] [--no-install]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../core/run-settings.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { DIST_MAIN, ensureDist } from './commands.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { startIndependent } from './independent/start.ts';
import { PEERS_DIR, SPEC } from './peers/peer.ts';
import { schemathesis } from './peers/schemathesis.ts';
import { ROOT, SEED } from './root.ts';

/**
 * A process run to its end, asynchronously: the delaying proxy lives in this process and must go on
 * answering while the contenders run (a synchronous spawn would hold its event loop).
 */
function run(argv: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv; capMs: number; inherit?: boolean }): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, stdio: ['ignore', opts.inherit ? 'inherit' : 'ignore', opts.inherit ? 'inherit' : 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.capMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

interface Contender {
  name: string;
  argv: string[];
  verdict?: string;
}

const { values } = parseArgs({ options: { delay: { type: 'string' }, runs: { type: 'string' }, 'no-peers': { type: 'boolean' }, 'no-install': { type: 'boolean' } } });
const delayMs = Number(values.delay ?? 50);
const runs = Number(values.runs ?? 3);
if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 10_000 || !Number.isInteger(runs) || runs < 1 || runs > 50) {
  process.stderr.write('bench:latency: --delay takes 0 to 10000 (ms), --runs 1 to 50\n');
  process.exit(2);
}
if (spawnSync('hyperfine', ['--version']).status !== 0) {
  process.stderr.write('bench:latency: hyperfine is not installed (Debian: apt-get install hyperfine)\n');
  process.exit(2);
}
const log = (s: string) => process.stderr.write(`bench:latency: ${s}\n`);
const problem = ensureDist(false, log);
if (problem) log(problem);

const server = await startIndependent();
const proxy = await startDelayProxy(new URL(server.baseUrl).origin, delayMs);
const out = join(ROOT, 'bench', 'out');
mkdirSync(out, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'bench-latency-'));
try {
  const baseUrl = proxy.origin + new URL(server.baseUrl).pathname;
  const targetFile = join(dir, 'target.yaml');
  writeFileSync(targetFile, server.yaml.replace(server.baseUrl, baseUrl));
  const env = { ...process.env, ...server.env, FORCE_COLOR: '0', PYTHONDONTWRITEBYTECODE: '1' };
  const suite = (concurrency: number): Contender => ({
    name: `suite, --concurrency ${concurrency}`,
    argv: [process.execPath, DIST_MAIN, '--target', targetFile, '--seed', String(SEED), '--concurrency', String(concurrency), '--report-dir', join(dir, `report-${concurrency}`)],
  });
  const contenders: Contender[] = [suite(1), suite(DEFAULTS.concurrency)];
  const st = schemathesis(25, SEED);
  const peer = values['no-peers'] ? { ok: false as const, reason: '--no-peers' } : await st.ensure(!values['no-install']);
  if (peer.ok) {
    for (const workers of [1, 4]) {
      const args = ['run', SPEC, '--url', baseUrl, '-H', `Authorization: Bearer ${server.apiKey}`, '--checks', 'all', '--max-examples', '25', '--seed', String(SEED), '--generation-database', 'none', '--no-color', '--workers', String(workers)];
      contenders.push({ name: `Schemathesis ${peer.version}, ${workers} worker${workers > 1 ? 's' : ''}`, argv: [join(PEERS_DIR, 'venv', 'bin', 'schemathesis'), ...args] });
    }
  } else log(`Schemathesis left out: ${peer.reason}`);

  // One run each for the verdict (and the suite's request counts), outside the timing.
  for (const c of contenders) {
    const before = proxy.count;
    const status = await run(c.argv, { cwd: dir, env, capMs: 300_000 });
    const sent = proxy.count - before;
    if (c.name.startsWith('suite')) {
      const report = JSON.parse(readFileSync(join(c.argv[c.argv.indexOf('--report-dir') + 1]!, 'report.json'), 'utf8')) as ConformanceReport;
      c.verdict = `${report.verdict.toUpperCase()} (exit ${status}); ${sent} requests, ${report.run.requestsSaved ?? 0} answered from memory`;
    } else c.verdict = `exit ${status} (${status === 0 ? 'no failure' : 'failures reported'}); ${sent} requests`;
    log(`${c.name}: ${c.verdict}`);
  }

  const json = join(out, 'latency.json');
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const timed = await run(['hyperfine', '--runs', String(runs), '--shell=none', '--ignore-failure', '--export-json', json, ...contenders.flatMap((c) => ['--command-name', c.name, c.argv.map(quote).join(' ')])], { cwd: dir, env, capMs: 3_600_000, inherit: true });
  if (timed !== 0) throw new Error(`hyperfine ended with exit ${timed}`);
  const results = (JSON.parse(readFileSync(json, 'utf8')) as { results: Array<{ command: string; mean: number; stddev: number | null; min: number; max: number }> }).results;
  const fastestPeer = results.filter((r) => r.command.startsWith('Schemathesis')).reduce((m, r) => Math.min(m, r.mean), Infinity);
  const rows = results.map((r) => {
    const c = contenders.find((x) => x.name === r.command)!;
    const vsPeer = Number.isFinite(fastestPeer) ? ` | ${(r.mean / fastestPeer).toFixed(2)}x` : '';
    return `| ${r.command} | ${r.mean.toFixed(2)} s ± ${(r.stddev ?? 0).toFixed(2)} | ${r.min.toFixed(2)}–${r.max.toFixed(2)} s${vsPeer} | ${c.verdict} |`;
  });
  const table = [
    `Independent server behind a ${delayMs} ms-per-request loopback proxy, ${runs} runs each side by side (hyperfine), seed ${SEED}:`,
    '',
    `| contender | wall (mean ± sd) | min–max${Number.isFinite(fastestPeer) ? ' | vs fastest Schemathesis' : ''} | verdict |`,
    `|---|---|---${Number.isFinite(fastestPeer) ? '|---' : ''}|---|`,
    ...rows,
    '',
  ].join('\n');
  writeFileSync(join(out, 'latency.md'), table);
  process.stdout.write(table);
} finally {
  await proxy.close();
  await server.close();
}
