/**
 * Where the time of one run goes, without touching the suite: a preload (NODE_OPTIONS `--require`,
 * plain CommonJS since it loads before tsx) in every Node process of the run records when the process
 * started (performance.timeOrigin), when it exited, and when Node's diagnostics channels saw its
 * first and last HTTP request sent (`http.client.request.start`: in the command's process, the
 * preflight and then the engine's checks) and its first and last local-socket connection
 * (`net.client.socket`: a Playwright test asking the engine for its outcome). The report's
 * run.startedAt says when the run began (the engine's first check, after the preflight). Together
 * they cut a run into phases.
 */
import { installPreload, PRELOAD_OUT_ENV } from './preload.ts';
import type { Measured } from './spawn.ts';

const CHANNELS = ['http.client.request.start', 'net.client.socket'] as const;
type Channel = (typeof CHANNELS)[number];

/** What the preload writes for one process (times in ms since the epoch, sub-millisecond). */
export interface ProcessRecord {
  pid: number;
  ppid: number;
  argv: string[];
  start: number;
  exit?: number;
  channels: Record<Channel, { count: number; first: number; last: number }>;
}

const PRELOAD = `'use strict';
const { performance } = require('node:perf_hooks');
const dc = require('node:diagnostics_channel');
const now = () => performance.timeOrigin + performance.now();
const rec = { pid: process.pid, ppid: process.ppid, argv: process.argv.slice(0, 6), start: performance.timeOrigin, channels: {} };
for (const name of ${JSON.stringify(CHANNELS)}) {
  const c = (rec.channels[name] = { count: 0, first: 0, last: 0 });
  dc.subscribe(name, () => { const t = now(); if (c.count++ === 0) c.first = t; c.last = t; });
}
process.on('exit', () => {
  rec.exit = now();
  try { require('node:fs').writeFileSync(require('node:path').join(process.env.${PRELOAD_OUT_ENV}, process.pid + '.json'), JSON.stringify(rec)); } catch {}
});
`;

export interface Probe {
  /** Environment for the probed command. */
  env: Record<string, string>;
  /** The records of every Node process that exited, then the probe's files are removed. */
  collect(): ProcessRecord[];
}

export function startProbe(): Probe {
  const preload = installPreload(PRELOAD);
  return {
    env: preload.env,
    collect() {
      try {
        return preload.records<ProcessRecord>();
      } finally {
        preload.remove();
      }
    },
  };
}

export type ProcessRole = 'launcher' | 'cli' | 'runner' | 'worker';

export function roleOf(argv: readonly string[]): ProcessRole {
  const main = argv[1] ?? '';
  if (main.includes('workerProcessEntry')) return 'worker';
  if (/playwright(\/test)?\/cli\.js$/.test(main) && argv.includes('test')) return 'runner';
  if (/cli\/(conformance\.ts|conformance\.js|main\.js)$/.test(main)) return 'cli';
  return 'launcher';
}

/** Milestones of one run, ms since the bench spawned the command. */
export interface Timeline {
  cliStart?: number;
  /** Playwright's runner started: the command spawns it before it reads the target (cli/conformance.ts). */
  runnerStart?: number;
  /** The CLI printed `target:` (its imports loaded, the embedded reference started, the target parsed). */
  cliReady?: number;
  /** The command's first HTTP request: the preflight's. */
  firstRequest?: number;
  /** The run began, the preflight passed (report.json run.startedAt; millisecond resolution). */
  engineReady?: number;
  /** The command's last HTTP request: the engine's last check request. */
  lastRequest?: number;
  /** HTTP requests the command sent, the preflight's included. */
  requests?: number;
  workerStart?: number;
  /** The first test asked the engine for its outcome: the worker is up and has loaded the spec file. */
  firstAsk?: number;
  lastAsk?: number;
  runnerExit?: number;
  verdictLine?: number;
  exit: number;
  /** Worker processes Playwright started in the run (1 when no failing test cost a new worker). */
  workers: number;
  processes: number;
}

/** The milestones of a probed run from its process records, its console lines and its report. */
export function timelineOf(m: Measured, records: readonly ProcessRecord[], reportStartedAt: string | undefined): Timeline {
  const spawnAbs = performance.timeOrigin + m.startedAt;
  const rel = (abs: number | undefined) => (abs === undefined || abs === 0 ? undefined : abs - spawnAbs);
  const by = (role: ProcessRole) => records.filter((r) => roleOf(r.argv) === role).sort((a, b) => a.start - b.start);
  const cli = by('cli')[0];
  const runner = by('runner')[0];
  const workers = by('worker');
  const lineAt = (re: RegExp) => m.stdout.find((l) => re.test(l.line))?.t;
  const channel = (r: ProcessRecord | undefined, c: Channel) => (r && r.channels[c].count > 0 ? r.channels[c] : undefined);
  const asks = workers.map((w) => channel(w, 'net.client.socket')).filter((c) => c !== undefined);
  const t: Timeline = { exit: m.wallMs, workers: workers.length, processes: records.length };
  const set = <K extends keyof Timeline>(k: K, v: Timeline[K] | undefined) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isNaN(v))) t[k] = v;
  };
  const http = channel(cli, 'http.client.request.start');
  set('cliStart', rel(cli?.start));
  set('runnerStart', rel(runner?.start));
  set('cliReady', lineAt(/^target: /));
  set('firstRequest', rel(http?.first));
  set('engineReady', reportStartedAt ? rel(Date.parse(reportStartedAt)) : undefined);
  set('lastRequest', rel(http?.last));
  set('requests', http?.count);
  set('workerStart', rel(workers[0]?.start));
  set('firstAsk', rel(asks.length ? Math.min(...asks.map((c) => c.first)) : undefined));
  set('lastAsk', rel(asks.length ? Math.max(...asks.map((c) => c.last)) : undefined));
  set('runnerExit', rel(runner?.exit));
  set('verdictLine', lineAt(/^verdict: /));
  return t;
}

/** A phase of a run: its name, how it is measured, and its duration in one timeline (if measurable). */
export interface PhaseDef {
  name: string;
  measuredAs: string;
  /** The phase runs beside the others (not on the path from spawn to exit). */
  parallel?: boolean;
  of(t: Timeline): number | undefined;
}

const span = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b - a);

/**
 * The phases of a default run. The sequential ones follow Playwright, the run's longest path, and add
 * up to spawn → exit; the command's own work (the target, the checks' modules, the preflight, the
 * engine) runs beside them, in its own process.
 */
export const PHASES: readonly PhaseDef[] = [
  { name: 'launchers (npm, tsx) until the CLI process starts', measuredAs: 'spawn → CLI process start', of: (t) => t.cliStart },
  { name: 'CLI start until Playwright is spawned (options, settings)', measuredAs: 'CLI process start → Playwright runner process start', of: (t) => span(t.cliStart, t.runnerStart) },
  { name: "Playwright runner: its code, the config, the global set-up (the engine's listing), the spec file", measuredAs: 'runner start → worker process start', of: (t) => span(t.runnerStart, t.workerStart) },
  { name: 'worker start: process, Playwright, the spec file', measuredAs: 'worker process start → first test asks the engine', of: (t) => span(t.workerStart, t.firstAsk) },
  { name: 'the tests: each asks the engine for its outcome and reports it', measuredAs: 'first → last test asks', of: (t) => span(t.firstAsk, t.lastAsk) },
  { name: 'workers and runner exit', measuredAs: 'last test asks → runner exit', of: (t) => span(t.lastAsk, t.runnerExit) },
  { name: 'report written, CLI summary and exit', measuredAs: 'runner exit → command exit', of: (t) => span(t.runnerExit, t.exit) },
  { name: 'CLI: its imports, the embedded reference, the target read', measuredAs: 'CLI process start → `target:` printed', parallel: true, of: (t) => span(t.cliStart, t.cliReady) },
  { name: 'the check modules loaded, the engine socket opened, the preflight', measuredAs: '`target:` → run began (report run.startedAt)', parallel: true, of: (t) => span(t.cliReady, t.engineReady) },
  { name: 'the checks, in the engine', measuredAs: 'run began → last request', parallel: true, of: (t) => span(t.engineReady, t.lastRequest) },
  { name: 'the engine still sending when the first test asks', measuredAs: 'first test asks → last request (0 if before)', parallel: true, of: (t) => (t.firstAsk !== undefined && t.lastRequest !== undefined ? Math.max(0, t.lastRequest - t.firstAsk) : undefined) },
];
