/**
 * The figures the suite's targets are stated in, measured side by side in one bench: rounds in which
 * every contender runs once, in an order that rotates from round to round, so that a machine whose
 * load drifts (shared CI, other work) weighs on all of them alike. Ratios are taken within a round
 * (this contender's wall / that one's, same round), then their median over the rounds.
 *
 * Contenders: `--help` (start-up alone) and the default run (the embedded reference) by each command
 * (npm + tsx, tsx alone, the compiled package); the suite and each peer against the same reference
 * served by the bench; the suite against targets that fail every check (HTML answered with 200, a
 * rejected key). Then probed runs (bench/probe.ts) say where the time of a run goes.
 */
import { startReference } from '../reference/server.ts';
import { commandLabel, type SuiteCommand } from './commands.ts';
import { rejectedKeyTarget, startHtmlTarget } from './failing-targets.ts';
import { runFloor } from './floor.ts';
import { runInProcess } from './in-process.ts';
import { startIndependent, type IndependentServer } from './independent/start.ts';
import { runEmbedded, runHelp, runSuite, runSuiteOn, type RunOptions, type SuiteRun } from './measure.ts';
import type { PeerRun, PeerTool } from './peers/peer.ts';
import type { Timeline } from './probe.ts';
import type { SuiteRunRecord, TargetResult } from './results.ts';

export type Contest = 'start-up' | 'default run' | 'reference' | 'failing target' | 'peer' | 'independent';

/** One run of a contender, reduced to what the side-by-side table shows. */
export interface ContenderRun {
  wallMs: number;
  exitCode: number | null;
  timedOut: boolean;
  cpuS?: number;
  verdict?: string;
  requests?: number;
  /** Failed checks (the suite) or distinct failures (a peer). */
  failures?: number;
  workers?: number;
  /** The in-process run: the package's import and the run itself, ms. */
  split?: { importMs: number; runMs: number };
  /** What a refused run said (its one stderr line). */
  line?: string;
  problem?: string;
}

export interface Contender {
  id: string;
  contest: Contest;
  label: string;
  /** Another tool, not the suite (its failures are the tool's own count). */
  peer?: boolean;
  runs: ContenderRun[];
}

export interface ProbedSet {
  id: string;
  label: string;
  timelines: Timeline[];
  walls: number[];
}

export interface SideBySide {
  rounds: number;
  contenders: Contender[];
  probed: ProbedSet[];
}

interface Plan {
  id: string;
  contest: Contest;
  label: string;
  peer?: boolean;
  run(round: number): Promise<ContenderRun>;
}

export interface SideBySideOptions {
  rounds: number;
  probeRuns: number;
  capMs: number;
  peerCapMs: number;
  commands: readonly SuiteCommand[];
  peers: readonly PeerTool[];
  log(s: string): void;
  problem(s: string): void;
}

function ofSuite(r: SuiteRun): ContenderRun {
  return {
    wallMs: r.wallMs,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    verdict: r.verdict,
    // A refused run writes no report: what the server received is what it sent.
    requests: r.verdict === 'none' && r.received > 0 ? r.received : r.requests,
    failures: r.failedChecks.length,
    ...(r.cpuS !== undefined ? { cpuS: r.cpuS } : {}),
    ...(r.workers !== undefined ? { workers: r.workers } : {}),
    ...(r.verdict === 'none' && r.stderrLine ? { line: r.stderrLine } : {}),
    ...(r.problem ? { problem: r.problem } : {}),
  };
}

function record(r: SuiteRun): SuiteRunRecord {
  const { captured: _c, ...rest } = r;
  return rest;
}

/**
 * Runs the rounds. The reference's and the default run's suite runs, floors and peer runs also fill
 * `reference` and `embedded` (the per-target tables and the peers' baseline read them there).
 */
export async function sideBySide(o: SideBySideOptions, reference: TargetResult, embedded: TargetResult): Promise<SideBySide> {
  const suiteOpts: RunOptions = { capMs: o.capMs };
  const plans: Plan[] = [];
  const by = (c: SuiteCommand) => commandLabel(c);
  for (const c of o.commands) {
    plans.push({
      id: `help:${c}`,
      contest: 'start-up',
      label: `${by(c)} --help`,
      run: async () => {
        const m = await runHelp(c, o.capMs);
        return { wallMs: m.wallMs, exitCode: m.code, timedOut: m.timedOut, ...(m.cpuS !== undefined ? { cpuS: m.cpuS } : {}), ...(m.code !== 0 ? { problem: `exit ${m.code}: ${m.stderr.trim().split('\n').pop() ?? ''}` } : {}) };
      },
    });
  }
  // The default run's row in the per-target tables: the command users type, when it is measured.
  const embeddedBy = o.commands.includes('npm') ? 'npm' : o.commands[0];
  for (const c of o.commands) {
    plans.push({
      id: `default:${c}`,
      contest: 'default run',
      label: `${by(c)} (no target: the embedded reference)`,
      run: async () => {
        const r = await runEmbedded(c, suiteOpts);
        if (c === embeddedBy) embedded.suite.push(record(r));
        return ofSuite(r);
      },
    });
  }
  for (const c of o.commands.filter((x) => x !== 'npm')) {
    plans.push({
      id: `reference:${c}`,
      contest: 'reference',
      label: `${by(c)} --target (the reference served by the bench)`,
      run: async () => {
        const s = await runSuite(c, {}, suiteOpts);
        try {
          if (c === 'tsx') {
            reference.suite.push(record(s));
            try {
              reference.floor.push(await runFloor(s.captured));
            } catch (e) {
              o.problem(`reference: floor failed: ${(e as Error).message}`);
            }
          }
          return ofSuite(s);
        } finally {
          await s.close();
        }
      },
    });
  }
  for (const tool of o.peers) {
    plans.push({
      id: `peer:${tool.name}`,
      contest: 'peer',
      peer: true,
      label: `${tool.name} (the reference served by the bench)`,
      run: async () => {
        const r = await runPeer(tool, o.peerCapMs);
        (reference.peers[tool.name] ??= []).push(r);
        return ofPeer(r);
      },
    });
  }
  // One independent server (bench/independent/), written from the document apart from the reference:
  // the compiled command, the same engine in one process (runConformance), and Schemathesis, against it.
  if (o.commands.includes('dist')) {
    plans.push({
      id: 'independent:dist',
      contest: 'independent',
      label: `${by('dist')} --target (the independent server)`,
      run: () => onIndependent(async (t) => ofSuite(await runSuiteOn('dist', t, suiteOpts))),
    });
    plans.push({
      id: 'independent:in-process',
      contest: 'independent',
      label: '`runConformance` of dist/index.js in one Node process (the independent server)',
      run: () => onIndependent((t) => runInProcess(t, o.capMs)),
    });
  }
  for (const tool of o.peers.filter((p) => p.name === 'Schemathesis')) {
    plans.push({
      id: `independent:${tool.name}`,
      contest: 'independent',
      peer: true,
      label: `${tool.name} (the independent server)`,
      run: () =>
        onIndependent(async (t) => ofPeer(await tool.run(t.baseUrl, t.apiKey, o.peerCapMs))),
    });
  }
  const failing: SuiteCommand = o.commands.includes('tsx') ? 'tsx' : o.commands[0]!;
  plans.push({
    id: `html:${failing}`,
    contest: 'failing target',
    label: `${by(failing)} --target: every request answered 200 with an HTML page`,
    run: () => htmlRun(failing, suiteOpts).then(ofSuite),
  });
  plans.push({
    id: `rejected-key:${failing}`,
    contest: 'failing target',
    label: `${by(failing)} --target: the reference with a key it rejects`,
    run: () => rejectedRun(failing, suiteOpts).then(ofSuite),
  });

  const contenders: Contender[] = plans.map((p) => ({ id: p.id, contest: p.contest, label: p.label, ...(p.peer ? { peer: true } : {}), runs: [] }));
  /** A contender whose first run could not complete is not run again (a broken build, a missing peer). */
  const dropped = new Set<string>();
  for (let round = 0; round < o.rounds; round++) {
    const order = plans.map((_, i) => plans[(i + round) % plans.length]!);
    const parts: string[] = [];
    for (const p of order) {
      if (dropped.has(p.id)) continue;
      const c = contenders.find((x) => x.id === p.id)!;
      let r: ContenderRun;
      try {
        r = await p.run(round);
      } catch (e) {
        r = { wallMs: NaN, exitCode: null, timedOut: false, problem: `could not be run: ${(e as Error).message.split('\n')[0]}` };
      }
      c.runs.push(r);
      if (r.problem) {
        o.problem(`${p.id}: ${r.problem}`);
        if (round === 0) dropped.add(p.id);
      }
      parts.push(`${p.id} ${(r.wallMs / 1000).toFixed(2)} s`);
    }
    o.log(`side by side, round ${round + 1}/${o.rounds}: ${parts.join(', ')}`);
  }

  // Probed runs: the same runs with the probe's preload, apart from the timed ones above.
  const probes: Array<{ id: string; label: string; run: () => Promise<SuiteRun> }> = [];
  for (const c of o.commands) if (!dropped.has(`default:${c}`)) probes.push({ id: `default:${c}`, label: `default run, ${by(c)}`, run: () => runEmbedded(c, { ...suiteOpts, probe: true }) });
  probes.push({
    id: `reference:${failing}`,
    label: `${by(failing)} --target the reference`,
    run: async () => {
      const s = await runSuite(failing, {}, { ...suiteOpts, probe: true });
      await s.close();
      return s;
    },
  });
  probes.push({ id: `html:${failing}`, label: `${by(failing)} --target HTML answered with 200`, run: () => htmlRun(failing, { ...suiteOpts, probe: true }) });
  const probed: ProbedSet[] = probes.map((p) => ({ id: p.id, label: p.label, timelines: [], walls: [] }));
  for (let i = 0; i < o.probeRuns; i++) {
    for (const [k, p] of probes.entries()) {
      try {
        const r = await p.run();
        if (r.timeline) probed[k]!.timelines.push(r.timeline);
        probed[k]!.walls.push(r.wallMs);
        if (r.problem) o.problem(`probed ${p.id}: ${r.problem}`);
      } catch (e) {
        o.problem(`probed ${p.id}: could not be run: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    o.log(`probed runs ${i + 1}/${o.probeRuns}`);
  }
  return { rounds: o.rounds, contenders, probed };
}

/** Runs one peer against a fresh reference with `options`; requests from what the reference received. */
export async function runPeer(tool: PeerTool, capMs: number, options: Parameters<typeof startReference>[0] = {}): Promise<PeerRun> {
  const server = await startReference(options);
  try {
    const r = await tool.run(server.baseUrl, server.keys.management, capMs);
    return { ...r, requests: server.received.length };
  } finally {
    await server.close();
  }
}

/** Runs `f` against a fresh independent server (a fresh one per run, as the reference is). */
async function onIndependent(f: (t: IndependentServer) => Promise<ContenderRun>): Promise<ContenderRun> {
  const server = await startIndependent();
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

/** A peer's run as the table shows it; `requests` when the bench counted them. */
function ofPeer(r: Omit<PeerRun, 'requests'> & { requests?: number }): ContenderRun {
  return { wallMs: r.wallMs, exitCode: r.exitCode, timedOut: r.timedOut, ...(r.requests !== undefined ? { requests: r.requests } : {}), failures: r.failures.length, ...(r.cpuS !== undefined ? { cpuS: r.cpuS } : {}), ...(r.problem ? { problem: r.problem } : {}) };
}

async function htmlRun(command: SuiteCommand, opts: RunOptions): Promise<SuiteRun> {
  // A reference only for the target file's fixture values; the HTML server answers every request.
  const fixtures = await startReference();
  const html = await startHtmlTarget(fixtures);
  try {
    return await runSuiteOn(command, html, opts);
  } finally {
    await html.close();
    await fixtures.close();
  }
}

async function rejectedRun(command: SuiteCommand, opts: RunOptions): Promise<SuiteRun> {
  const server = await startReference();
  try {
    return await runSuiteOn(command, rejectedKeyTarget(server), { ...opts, refused: true });
  } finally {
    await server.close();
  }
}
