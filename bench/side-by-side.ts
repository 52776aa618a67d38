/**
 * The figures the suite's targets are stated in, side by side: each contender runs once, untimed, for
 * what it says (its verdict, requests, failures), then all of them are timed together in one hyperfine
 * run (bench/run.ts). Two rows, each one hyperfine run:
 *
 * - loopback: `--help` (start-up alone) and the default run (the embedded reference) by each command
 *   (npm + tsx, tsx alone, the compiled package); the suite and each peer against one reference served
 *   by the bench; the compiled command, the same engine in one process and Schemathesis against the
 *   independent server (bench/independent/); the suite against targets that fail every check.
 * - latency: the independent server behind a loopback proxy that holds every request `delayMs` (a
 *   deployment in another region): the compiled suite one request at a time (--concurrency 1) and at
 *   its default, and Schemathesis with 1 and 4 workers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { commandLabel, nodeOfSuite, suiteArgv, type SuiteCommand } from './commands.ts';
import { startDelayProxy } from './delay-proxy.ts';
import { rejectedKeyTarget, startHtmlTarget } from './failing-targets.ts';
import { inProcessArgv, readInProcess } from './in-process.ts';
import { playwrightFloorArgv } from './playwright-floor.ts';
import { startIndependent } from './independent/start.ts';
import type { PeerTool } from './peers/peer.ts';
import { schemathesis } from './peers/schemathesis.ts';
import { SEED } from './root.ts';
import { hyperfine, runOnce, type Ran, type Timing } from './run.ts';
import { suiteOutcome } from './suite-run.ts';

export type Contest = 'start-up' | 'default run' | 'reference' | 'independent' | 'failing target' | 'latency';

/** What a contender's untimed run said. */
export interface Outcome {
  exitCode: number | null;
  verdict?: string;
  requests?: number;
  /** Requests answered from the run's memory (the suite's report.json run.requestsSaved). */
  saved?: number;
  /** Failed checks (the suite) or distinct failures (a peer). */
  failures?: number;
  /** What a refused run said (its one stderr line). */
  line?: string;
  /** The in-process run: the package's import and the run itself, ms. */
  split?: { importMs: number; runMs: number };
  problem?: string;
}

export interface Contender {
  id: string;
  contest: Contest;
  label: string;
  /** Another tool, not the suite (its failures are the tool's own count). */
  peer?: boolean;
  outcome: Outcome;
  /** Hyperfine's figures; absent when the untimed run did not complete (it is not timed). */
  timing?: Timing;
}

export interface SideBySide {
  /** Timed runs per contender. */
  runs: number;
  /** The latency row: ms the proxy holds every request. */
  delayMs?: number;
  contenders: Contender[];
}

export interface SideBySideOptions {
  runs: number;
  capMs: number;
  /** Where each row's scratch files go, and where hyperfine's JSON export is kept. */
  dir: string;
  out: string;
  log(s: string): void;
  problem(s: string): void;
}

interface Plan {
  id: string;
  contest: Contest;
  label: string;
  peer?: boolean;
  argv: string[];
  /** Requests the served target received so far, when the bench can count them. */
  sent?: () => number;
  read(r: Ran, sent: number | undefined): Outcome;
}

/** The suite's run, read from its report in `reportDir` (a refused run: what the server received). */
function suite(reportDir: string, expectReport = true) {
  return (r: Ran, sent: number | undefined): Outcome => {
    const s = suiteOutcome(r, reportDir, expectReport);
    return {
      exitCode: s.exitCode,
      verdict: s.verdict,
      requests: s.verdict === 'none' && sent !== undefined ? sent : s.requests,
      failures: s.failedChecks.length,
      ...(s.saved !== undefined ? { saved: s.saved } : {}),
      ...(s.verdict === 'none' && s.stderrLine ? { line: s.stderrLine } : {}),
      ...(s.problem ? { problem: s.problem } : {}),
    };
  };
}

function peer(tool: PeerTool, dir: string) {
  return (r: Ran, sent: number | undefined): Outcome => {
    const p = tool.read(r, dir);
    return {
      exitCode: r.code,
      failures: p.failures.length,
      ...(sent !== undefined ? { requests: sent } : {}),
      ...(p.problem ? { problem: p.problem } : {}),
    };
  };
}

/** Each plan once for its outcome, then those that completed side by side under hyperfine. */
async function race(
  name: string,
  plans: readonly Plan[],
  env: Record<string, string>,
  o: SideBySideOptions,
): Promise<Contender[]> {
  const contenders: Contender[] = [];
  const timed: Array<{ plan: Plan; contender: Contender }> = [];
  for (const p of plans) {
    const before = p.sent?.();
    let outcome: Outcome;
    try {
      const r = await runOnce(p.argv, { cwd: o.dir, env, capMs: o.capMs });
      outcome = r.timedOut
        ? { exitCode: null, problem: `killed at the ${o.capMs / 1000} s cap` }
        : p.read(r, before === undefined ? undefined : p.sent!() - before);
    } catch (e) {
      outcome = { exitCode: null, problem: `could not be run: ${(e as Error).message.split('\n')[0]}` };
    }
    const contender: Contender = {
      id: p.id,
      contest: p.contest,
      label: p.label,
      ...(p.peer ? { peer: true } : {}),
      outcome,
    };
    contenders.push(contender);
    if (outcome.problem) o.problem(`${p.id}: ${outcome.problem} (not timed)`);
    else timed.push({ plan: p, contender });
    o.log(
      `${name}: ${p.id}: exit ${outcome.exitCode}${outcome.verdict ? ` ${outcome.verdict}` : ''}${outcome.requests !== undefined ? `, ${outcome.requests} requests` : ''}`,
    );
  }
  if (timed.length) {
    mkdirSync(o.out, { recursive: true });
    const timings = await hyperfine(
      timed.map((t) => ({ name: t.plan.id, argv: t.plan.argv })),
      { runs: o.runs, cwd: o.dir, env, json: join(o.out, `${name}.json`), capMs: timed.length * o.runs * o.capMs },
    );
    for (const t of timed) {
      const timing = timings.find((x) => x.command === t.plan.id);
      if (timing) t.contender.timing = timing;
    }
  }
  return contenders;
}

/** The loopback row: every server on 127.0.0.1, no delay. */
export async function loopback(
  o: SideBySideOptions & { commands: readonly SuiteCommand[]; peers: readonly PeerTool[] },
): Promise<SideBySide> {
  const reference = await startReference();
  const html = await startHtmlTarget(reference);
  const independent = await startIndependent();
  try {
    const rejected = rejectedKeyTarget(reference);
    const file = (name: string, yaml: string) => {
      writeFileSync(join(o.dir, name), yaml);
      return join(o.dir, name);
    };
    const targets = {
      reference: file('reference.yaml', referenceTargetYaml(reference)),
      html: file('html.yaml', html.yaml),
      rejected: file('rejected.yaml', rejected.yaml),
      independent: file('independent.yaml', independent.yaml),
    };
    const env = {
      FORCE_COLOR: '0',
      PYTHONDONTWRITEBYTECODE: '1',
      ...referenceKeyEnv(reference),
      ...html.env,
      ...rejected.env,
      ...independent.env,
    };
    const received = () => reference.received.length;
    const by = (c: SuiteCommand) => commandLabel(c);
    const run = (id: string, c: SuiteCommand, args: string[] = []) => {
      const reportDir = join(o.dir, id.replace(/\W/g, '-'));
      return { argv: suiteArgv(c, [...args, '--seed', String(SEED), '--report-dir', reportDir]), reportDir };
    };
    const plans: Plan[] = [];
    for (const c of o.commands) {
      plans.push({
        id: `help:${c}`,
        contest: 'start-up',
        label: `${by(c)} --help`,
        argv: suiteArgv(c, ['--help']),
        read: (r) => ({
          exitCode: r.code,
          ...(r.code !== 0 ? { problem: `exit ${r.code}: ${r.stderr.trim().split('\n').pop() ?? ''}` } : {}),
        }),
      });
    }
    plans.push({
      id: 'playwright-floor',
      contest: 'start-up',
      label: "Playwright's runner and worker alone: `playwright test` of one empty test, the command's compile cache",
      argv: playwrightFloorArgv(o.dir),
      read: (r) => ({
        exitCode: r.code,
        ...(r.code !== 0 ? { problem: `exit ${r.code}: ${r.stderr.trim().split('\n').pop() ?? ''}` } : {}),
      }),
    });
    for (const c of o.commands) {
      const { argv, reportDir } = run(`default:${c}`, c);
      plans.push({
        id: `default:${c}`,
        contest: 'default run',
        label: `${by(c)} (no target: the embedded reference)`,
        argv,
        read: suite(reportDir),
      });
    }
    for (const c of o.commands.filter((x) => x !== 'npm')) {
      const { argv, reportDir } = run(`reference:${c}`, c, ['--target', targets.reference]);
      plans.push({
        id: `reference:${c}`,
        contest: 'reference',
        label: `${by(c)} --target (the reference served by the bench)`,
        argv,
        read: suite(reportDir),
      });
    }
    for (const tool of o.peers) {
      const dir = join(o.dir, `peer-${tool.name}`);
      mkdirSync(dir);
      plans.push({
        id: `peer:${tool.name}`,
        contest: 'reference',
        peer: true,
        label: `${tool.name} (the reference served by the bench)`,
        argv: tool.argv(reference.baseUrl, reference.keys.management, dir),
        sent: received,
        read: peer(tool, dir),
      });
    }
    // The independent server, written from the document apart from the reference: the compiled
    // command, the same engine in one process (runConformance), and Schemathesis against it.
    if (o.commands.includes('dist')) {
      const { argv, reportDir } = run('independent:dist', 'dist', ['--target', targets.independent]);
      plans.push({
        id: 'independent:dist',
        contest: 'independent',
        label: `${by('dist')} --target (the independent server)`,
        argv,
        read: suite(reportDir),
      });
      plans.push({
        id: 'independent:in-process',
        contest: 'independent',
        label: '`runConformance` of dist/index.js in one Node process (the independent server)',
        argv: inProcessArgv(o.dir, targets.independent, SEED),
        read: (r) => {
          const x = readInProcess(r);
          return 'problem' in x
            ? { exitCode: r.code, problem: x.problem }
            : {
                exitCode: r.code,
                verdict: x.verdict,
                requests: x.requests,
                failures: x.failedChecks,
                split: { importMs: x.importMs, runMs: x.runMs },
              };
        },
      });
    }
    for (const tool of o.peers.filter((p) => p.name === 'Schemathesis')) {
      const dir = join(o.dir, 'independent-schemathesis');
      mkdirSync(dir);
      plans.push({
        id: `independent:${tool.name}`,
        contest: 'independent',
        peer: true,
        label: `${tool.name} (the independent server)`,
        argv: tool.argv(independent.baseUrl, independent.apiKey, dir),
        read: peer(tool, dir),
      });
    }
    const failing: SuiteCommand = o.commands.includes('tsx') ? 'tsx' : o.commands[0]!;
    const h = run(`html:${failing}`, failing, ['--target', targets.html]);
    plans.push({
      id: `html:${failing}`,
      contest: 'failing target',
      label: `${by(failing)} --target: every request answered 200 with an HTML page`,
      argv: h.argv,
      read: suite(h.reportDir),
    });
    const k = run(`rejected-key:${failing}`, failing, ['--target', targets.rejected]);
    plans.push({
      id: `rejected-key:${failing}`,
      contest: 'failing target',
      label: `${by(failing)} --target: the reference with a key it rejects`,
      argv: k.argv,
      sent: received,
      read: suite(k.reportDir, false),
    });
    return { runs: o.runs, contenders: await race('side-by-side', plans, env, o) };
  } finally {
    await independent.close();
    await html.close();
    await reference.close();
  }
}

/** The latency row: the independent server behind the delaying proxy. */
export async function latency(
  o: SideBySideOptions & { delayMs: number; distMain: string; schemathesis?: { version: string; maxExamples: number } },
): Promise<SideBySide> {
  const server = await startIndependent();
  const proxy = await startDelayProxy(new URL(server.baseUrl).origin, o.delayMs);
  try {
    const baseUrl = proxy.origin + new URL(server.baseUrl).pathname;
    const targetFile = join(o.dir, 'latency.yaml');
    writeFileSync(targetFile, server.yaml.replace(server.baseUrl, baseUrl));
    const plans: Plan[] = [1, DEFAULTS.concurrency].map((n) => {
      const reportDir = join(o.dir, `latency-${n}`);
      const argv = [
        nodeOfSuite(),
        o.distMain,
        '--target',
        targetFile,
        '--seed',
        String(SEED),
        '--concurrency',
        String(n),
        '--report-dir',
        reportDir,
      ];
      return {
        id: `suite, --concurrency ${n}${n === DEFAULTS.concurrency ? ' (default)' : ''}`,
        contest: 'latency',
        label: '',
        argv,
        sent: () => proxy.count,
        read: suite(reportDir),
      };
    });
    if (o.schemathesis) {
      for (const workers of [1, 4]) {
        const tool = schemathesis(o.schemathesis.maxExamples, SEED, workers);
        const dir = join(o.dir, `latency-st-${workers}`);
        mkdirSync(dir);
        const id = `Schemathesis ${o.schemathesis.version}, ${workers} worker${workers > 1 ? 's' : ''}`;
        plans.push({
          id,
          contest: 'latency',
          peer: true,
          label: '',
          argv: tool.argv(baseUrl, server.apiKey, dir),
          sent: () => proxy.count,
          read: peer(tool, dir),
        });
      }
    }
    for (const p of plans) p.label = p.id;
    return {
      runs: o.runs,
      delayMs: o.delayMs,
      contenders: await race('latency', plans, { FORCE_COLOR: '0', PYTHONDONTWRITEBYTECODE: '1', ...server.env }, o),
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}
