/**
 * Where the time of one run goes, without touching the suite: a preload (NODE_OPTIONS `--require`,
 * plain CommonJS since it loads before tsx) in every Node process of the run records when the process
 * started (performance.timeOrigin), when it exited, and when Node's diagnostics channels saw its
 * first and last HTTP request sent (`http.client.request.start`: the CLI's preflight, the engine's
 * checks in Playwright's runner) and its first and last local-socket connection
 * (`net.client.socket`: a Playwright test asking the engine for its outcome). The report's
 * run.startedAt says when the global set-up created the engine. Together they cut a run into phases.
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
  /** The CLI printed `target:` (its imports loaded, the embedded reference started, the target parsed). */
  cliReady?: number;
  preflightFirst?: number;
  preflightLast?: number;
  runnerStart?: number;
  /** The global set-up created the engine (report.json run.startedAt; millisecond resolution). */
  engineReady?: number;
  firstCheckRequest?: number;
  lastCheckRequest?: number;
  checkRequests?: number;
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
  set('cliStart', rel(cli?.start));
  set('cliReady', lineAt(/^target: /));
  set('preflightFirst', rel(channel(cli, 'http.client.request.start')?.first));
  set('preflightLast', rel(channel(cli, 'http.client.request.start')?.last));
  set('runnerStart', rel(runner?.start));
  set('engineReady', reportStartedAt ? rel(Date.parse(reportStartedAt)) : undefined);
  set('firstCheckRequest', rel(channel(runner, 'http.client.request.start')?.first));
  set('lastCheckRequest', rel(channel(runner, 'http.client.request.start')?.last));
  set('checkRequests', channel(runner, 'http.client.request.start')?.count);
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

/** The phases of a default run, in order; the sequential ones add up to spawn → exit. */
export const PHASES: readonly PhaseDef[] = [
  { name: 'launchers (npm, tsx) until the CLI process starts', measuredAs: 'spawn → CLI process start', of: (t) => t.cliStart },
  { name: 'CLI start: its imports, the embedded reference, the target', measuredAs: 'CLI process start → `target:` printed', of: (t) => span(t.cliStart, t.cliReady) },
  { name: 'preflight and report directory, Playwright spawned', measuredAs: '`target:` → Playwright runner process start', of: (t) => span(t.cliReady, t.runnerStart) },
  { name: 'Playwright runner start: its code, the config, the global set-up (engine, check modules)', measuredAs: 'runner start → engine created (report run.startedAt)', of: (t) => span(t.runnerStart, t.engineReady) },
  { name: 'test file loaded and listed in the runner, reporters begin', measuredAs: 'engine created → first check request sent', of: (t) => span(t.engineReady, t.firstCheckRequest) },
  { name: 'the checks, in the engine', measuredAs: 'first → last check request sent', of: (t) => span(t.firstCheckRequest, t.lastCheckRequest) },
  { name: 'worker start: process, Playwright, the spec file', measuredAs: 'worker process start → first test asks the engine', parallel: true, of: (t) => span(t.workerStart, t.firstAsk) },
  { name: 'tests still waiting after the last request (last check judged, whole-run checks)', measuredAs: 'last check request → last test asks', of: (t) => (t.lastAsk !== undefined && t.lastCheckRequest !== undefined ? Math.max(0, t.lastAsk - t.lastCheckRequest) : undefined) },
  { name: 'report written, workers and runner exit', measuredAs: 'later of last request and last ask → runner exit', of: (t) => span(t.lastAsk !== undefined && t.lastCheckRequest !== undefined ? Math.max(t.lastAsk, t.lastCheckRequest) : t.lastCheckRequest, t.runnerExit) },
  { name: 'CLI summary and exit', measuredAs: 'runner exit → command exit', of: (t) => span(t.runnerExit, t.exit) },
];
