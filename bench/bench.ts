/**
 * `npm run bench`: first the suite's targets side by side (bench/side-by-side.ts: start-up and the
 * default run by npm + tsx, tsx and the compiled package; the suite and the peers on one reference;
 * targets that fail every check; where the time of a run goes), then the suite, a bare HTTP floor and
 * other API testing tools (Dredd, Schemathesis) against every conformant variant and every fault of
 * the catalogue. Prints Markdown and writes bench/out/results.md, results.json and readme-section.md.
 * Not part of `npm test`.
 *
 *   npm run bench                    # full: 5 rounds side by side, conformant variants (3 runs each), every fault (1 run)
 *   npm run bench -- --quick         # 5 rounds side by side, conformant variants and 5 faults, 1 run each
 *   npm run bench -- --rounds 7 --no-peers --faults files-wrong-object,interns-oldest-first
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem, type as osType } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS } from '../reference/faults/index.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { distBuildCommit, distBuildTime, ensureDist, TSX_CLI, useDistMain, type SuiteCommand } from './commands.ts';
import { runFloor } from './floor.ts';
import { runSuite } from './measure.ts';
import { dredd } from './peers/dredd.ts';
import type { PeerRun, PeerTool } from './peers/peer.ts';
import { schemathesis } from './peers/schemathesis.ts';
import { profileRun, type ProfileResult } from './profile.ts';
import type { BenchResults, PeerInfo, TargetKind, TargetResult } from './results.ts';
import { ROOT, SEED } from './root.ts';
import { runPeer, sideBySide, type SideBySide } from './side-by-side.ts';
import { renderMarkdown } from './table.ts';

const USAGE = `usage: npm run bench -- [options]

  --quick                 5 faults, conformant variants 1 run each (the side by side as in full)
  --rounds N              side-by-side rounds: every contender runs once per round (default 5)
  --probe-runs N          probed runs per command for the phases of a run (default 3)
  --commands a,b          commands compared: npm, tsx, dist (default all three)
  --build                 rebuild dist/ with \`npm run build\` first (built anyway when missing or older than a source)
  --dist-main FILE        the compiled command to measure instead of dist/cli/main.js (e.g. an installed package's)
  --runs N                runs per conformant variant (default 3; faults always 1)
  --faults a,b            only these faults (names from reference/faults/; none for no fault)
  --variants a,b          only these conformant variants (names from reference/variants.ts; none for no variant)
  --no-peers              do not run Dredd and Schemathesis
  --no-install            do not install a missing peer into .cache/peers/
  --max-examples N        Schemathesis --max-examples (default 25)
  --peer-cap S            wall-time cap of one peer run in seconds (default 120)
  --suite-cap S           wall-time cap of one suite run in seconds (default 180)
  --no-profile            skip the profiled run (V8 profiler in every process of one run)
  --no-latency            skip the latency row (bench/latency.ts: 50 ms per request, hyperfine)
  --out DIR               where results.md and results.json go (default bench/out)
  --help                  this text`;

interface BenchOptions {
  quick: boolean;
  rounds: number;
  probeRuns: number;
  commands: SuiteCommand[];
  build: boolean;
  distMain?: string;
  runs: number;
  faults?: string[];
  variants?: string[];
  peers: boolean;
  install: boolean;
  maxExamples: number;
  peerCapMs: number;
  suiteCapMs: number;
  profile: boolean;
  latency: boolean;
  out: string;
}

function parse(argv: string[]): BenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean' },
      rounds: { type: 'string' },
      'probe-runs': { type: 'string' },
      commands: { type: 'string' },
      build: { type: 'boolean' },
      'dist-main': { type: 'string' },
      runs: { type: 'string' },
      faults: { type: 'string' },
      variants: { type: 'string' },
      'no-peers': { type: 'boolean' },
      'no-install': { type: 'boolean' },
      'max-examples': { type: 'string' },
      'peer-cap': { type: 'string' },
      'suite-cap': { type: 'string' },
      'no-profile': { type: 'boolean' },
      'no-latency': { type: 'boolean' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return undefined;
  const int = (name: string, v: string | undefined, fallback: number, min = 1, max = 1000) => {
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new Error(`--${name} takes a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  const quick = values.quick ?? false;
  const commands = (values.commands ?? 'npm,tsx,dist').split(',').map((c) => c.trim());
  const unknown = commands.filter((c) => !['npm', 'tsx', 'dist'].includes(c));
  if (unknown.length || commands.length === 0) throw new Error(`--commands takes npm, tsx and dist, got ${JSON.stringify(values.commands)}`);
  return {
    quick,
    rounds: int('rounds', values.rounds, 5, 1, 50),
    probeRuns: int('probe-runs', values['probe-runs'], 3, 0, 20),
    commands: [...new Set(commands)] as SuiteCommand[],
    build: values.build ?? false,
    ...(values['dist-main'] ? { distMain: resolve(values['dist-main']) } : {}),
    runs: int('runs', values.runs, quick ? 1 : 3, 1, 20),
    ...(values.faults ? { faults: names(values.faults) } : {}),
    ...(values.variants ? { variants: names(values.variants) } : {}),
    peers: !values['no-peers'],
    install: !values['no-install'],
    maxExamples: int('max-examples', values['max-examples'], 25, 1, 1000),
    peerCapMs: int('peer-cap', values['peer-cap'], 120, 5, 1800) * 1000,
    suiteCapMs: int('suite-cap', values['suite-cap'], 180, 10, 1800) * 1000,
    profile: !values['no-profile'],
    latency: !values['no-latency'],
    out: values.out ?? join(ROOT, 'bench', 'out'),
  };
}

function log(msg: string): void {
  process.stderr.write(`bench: ${msg}\n`);
}

/** A comma-separated list of names; `none` is the empty list. */
function names(list: string): string[] {
  const out = list.split(',').map((s) => s.trim()).filter(Boolean);
  return out.length === 1 && out[0] === 'none' ? [] : out;
}

/** The entries of `all` named in `names`, or undefined after saying which names are unknown. */
function pickNamed<T extends { name: string }>(all: readonly T[], names: readonly string[], what: string): T[] | undefined {
  const unknown = names.filter((n) => !all.some((x) => x.name === n));
  if (unknown.length) {
    process.stderr.write(`bench: unknown ${what}(s): ${unknown.join(', ')}\n`);
    return undefined;
  }
  return all.filter((x) => names.includes(x.name));
}

/** Picks `n` faults spread over the catalogue (one per area, roughly), for --quick. */
function spreadPick<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]!);
}

function versionOf(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function commandOutput(cmd: string, args: string[]): string | undefined {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The bench measures the working tree: when its number of checks changed between runs, say so. */
function suiteChanged(targets: readonly TargetResult[]): string[] {
  const counts = new Map<number, string[]>();
  for (const t of targets) for (const s of t.suite) if (s.checks > 0) counts.set(s.checks, [...(counts.get(s.checks) ?? []), t.name]);
  if (counts.size <= 1) return [];
  return [`the suite changed during the bench (the working tree was edited): ${[...counts].map(([n, names]) => `${n} checks in ${[...new Set(names)].length} target(s), e.g. ${names[0]}`).join('; ')}`];
}

interface Plan {
  name: string;
  kind: TargetKind;
  description: string;
  options: Partial<ReferenceOptions>;
  breaks?: string[];
  runs: number;
}

async function main(): Promise<number> {
  let opts: BenchOptions | undefined;
  try {
    opts = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message.split('\n')[0]}\n${USAGE}\n`);
    return 2;
  }
  if (!opts) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const started = performance.now();
  const loadavgStart = loadavg();
  const problems: string[] = [];

  // The catalogue as it is now (other files may add faults at any time: never a fixed list).
  let faults = opts.faults ? pickNamed(FAULTS, opts.faults, 'fault') : [...FAULTS];
  const variants = opts.variants ? pickNamed(CONFORMANT_VARIANTS, opts.variants, 'variant') : [...CONFORMANT_VARIANTS];
  if (!faults || !variants) return 2;
  if (!opts.faults && opts.quick) faults = spreadPick(FAULTS, 5);

  if (opts.distMain) {
    if (!existsSync(opts.distMain)) {
      process.stderr.write(`bench: --dist-main ${opts.distMain}: no such file\n`);
      return 2;
    }
    useDistMain(opts.distMain);
    problems.push(`the compiled command measured is ${opts.distMain} (--dist-main), not this tree's dist/`);
  } else if (opts.commands.includes('dist')) {
    const built = ensureDist(opts.build, log);
    if (built) problems.push(built);
  }

  const plans: Plan[] = [
    ...variants.map((v) => ({ name: v.name, kind: 'conformant' as const, description: v.description, options: v.options, runs: opts.runs })),
    ...faults.map((f) => ({ name: f.name, kind: 'fault' as const, description: f.description, options: { faults: [f.name] }, breaks: [...f.breaks], runs: 1 })),
  ];

  // Peers: installed on demand into .cache/peers/, or said plainly why not.
  const tools: PeerTool[] = [dredd, schemathesis(opts.maxExamples, SEED)];
  const peerInfo: PeerInfo[] = [];
  const usable: PeerTool[] = [];
  for (const tool of tools) {
    if (!opts.peers) {
      peerInfo.push({ name: tool.name, available: false, reason: 'skipped (--no-peers)', configuration: tool.configuration });
      continue;
    }
    const ok = await tool.ensure(opts.install);
    if (ok.ok) {
      peerInfo.push({ name: tool.name, available: true, version: ok.version, configuration: tool.configuration });
      usable.push(tool);
    } else {
      peerInfo.push({ name: tool.name, available: false, reason: ok.reason, configuration: tool.configuration });
      problems.push(`${tool.name} could not be used: ${ok.reason}`);
      log(`${tool.name} not available: ${ok.reason}`);
    }
  }

  // dist/ may be rebuilt by others while the bench runs: the build measured is the one found at the start.
  const distAtStart = distBuildCommit();
  const distBuiltAt = distBuildTime();
  const reference: TargetResult = { name: 'reference', kind: 'reference', description: 'the reference implementation, default options, served by the bench (`--target`)', suite: [], load: [], floor: [], peers: {} };
  const embedded: TargetResult = { name: 'reference', kind: 'embedded', description: '`npm run conformance` with no target: the reference embedded in the CLI process', suite: [], load: [], floor: [], peers: {} };
  const targets: TargetResult[] = [reference, embedded];
  let side: SideBySide | undefined;
  /** Writes what has been measured so far (after every target, so an interrupted bench leaves its data). */
  const write = (profile: ProfileResult | undefined, partial: boolean): BenchResults => {
    const versions: Record<string, string> = {
      node: process.version,
      '@playwright/test': versionOf('@playwright/test'),
      tsx: versionOf('tsx'),
      ajv: versionOf('ajv'),
      'fast-check': versionOf('fast-check'),
      'conformance-suite': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    };
    const commit = commandOutput('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']);
    if (commit) versions['commit'] = `${commit}${commandOutput('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : ''}`;
    if (distAtStart && opts.commands.includes('dist') && !opts.distMain) versions['dist/ built from'] = `${distAtStart} (at the start of the bench)`;
    const python = commandOutput('python3', ['--version']);
    if (python && opts.peers) versions['python (peer only)'] = python.replace(/^Python /, '');

    const cpu = cpus()[0];
    const results: BenchResults = {
      date: new Date().toISOString(),
      command: `npm run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
      mode: opts.quick ? 'quick' : 'full',
      runs: opts.runs,
      seed: SEED,
      machine: {
        nproc: Number(commandOutput('nproc', []) ?? cpus().length),
        cpu: cpu?.model ?? 'unknown',
        memoryGb: totalmem() / 1024 ** 3,
        os: `${osType()} ${release()} (free memory ${(freemem() / 1024 ** 3).toFixed(1)} GB)`,
        loadavgStart,
        loadavgEnd: loadavg(),
      },
      versions,
      peers: peerInfo,
      ...(side ? { sideBySide: side } : {}),
      targets,
      ...(profile ? { profile } : {}),
      problems: [...problems, ...suiteChanged(targets), ...(distBuildTime() !== distBuiltAt && opts.commands.includes('dist') && !opts.distMain ? ['dist/ was rebuilt while the bench ran (by another process): the compiled runs after that ran another build'] : [])],
      elapsedMs: performance.now() - started,
      partial,
    };
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'results.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(join(opts.out, 'results.md'), renderMarkdown(results));
    writeFileSync(join(opts.out, 'readme-section.md'), renderMarkdown(results, { compact: true }));
    return results;
  };
  side = await sideBySide(
    {
      rounds: opts.rounds,
      probeRuns: opts.probeRuns,
      capMs: opts.suiteCapMs,
      peerCapMs: opts.peerCapMs,
      commands: opts.commands,
      peers: usable,
      log,
      problem: (p) => problems.push(p),
    },
    reference,
    embedded,
  );
  write(undefined, true);

  // The latency row, side by side in one hyperfine run of its own (bench/latency.ts), its table kept
  // beside results.md as latency.md.
  if (opts.latency) {
    const args = [TSX_CLI, join(ROOT, 'bench', 'latency.ts'), '--runs', String(opts.rounds), ...(opts.peers ? [] : ['--no-peers']), ...(opts.install ? [] : ['--no-install'])];
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }).on('exit', resolve));
    if (code !== 0) problems.push(`the latency row (bench/latency.ts) ended with exit ${code}`);
  }

  let i = 0;
  for (const plan of plans) {
    i++;
    const t: TargetResult = { name: plan.name, kind: plan.kind, description: plan.description, suite: [], load: [], floor: [], peers: {}, ...(plan.breaks ? { breaks: plan.breaks } : {}) };
    targets.push(t);
    const parts: string[] = [];
    for (let run = 0; run < plan.runs; run++) {
      t.load.push(loadavg()[0] ?? 0);
      try {
        const s = await runSuite('tsx', plan.options, { capMs: opts.suiteCapMs });
        try {
          const { captured, baseUrl: _url, close: _close, ...record } = s;
          t.suite.push(record);
          parts.push(`suite ${(s.wallMs / 1000).toFixed(2)} s ${s.verdict} ${s.requests} req`);
          if (s.problem) problems.push(`${plan.kind} ${plan.name}: the suite run did not complete: ${s.problem}`);
          if (s.received !== s.requests) parts.push(`(server received ${s.received})`);
          try {
            const f = await runFloor(captured);
            t.floor.push(f);
            parts.push(`floor ${(f.processMs / 1000).toFixed(2)} s`);
            if (f.answered !== f.requests) problems.push(`${plan.name}: the floor got ${f.answered} answers to ${f.requests} requests`);
          } catch (e) {
            problems.push(`${plan.name}: floor failed: ${(e as Error).message}`);
          }
        } finally {
          await s.close();
        }
      } catch (e) {
        problems.push(`${plan.kind} ${plan.name}: the suite could not be run: ${(e as Error).message}`);
      }
    }
    for (const tool of usable) {
      const runs: PeerRun[] = [];
      for (let run = 0; run < plan.runs; run++) {
        try {
          const r = await runPeer(tool, opts.peerCapMs, plan.options);
          runs.push(r);
          if (r.problem) problems.push(`${tool.name} on ${plan.name}: ${r.problem}`);
          if (r.timedOut) problems.push(`${tool.name} on ${plan.name}: killed at the ${opts.peerCapMs / 1000} s cap`);
        } catch (e) {
          problems.push(`${tool.name} on ${plan.name}: could not be run: ${(e as Error).message}`);
        }
      }
      t.peers[tool.name] = runs;
      const last = runs[runs.length - 1];
      if (last) parts.push(`${tool.name} ${(last.wallMs / 1000).toFixed(1)} s exit ${last.exitCode} ${last.failures.length} failures`);
    }
    log(`[${i}/${plans.length}] ${plan.kind} ${plan.name}: ${parts.join(', ')}`);
    write(undefined, true);
  }

  let profile: ProfileResult | undefined;
  if (opts.profile) {
    try {
      log('profiled default run (V8 profiler in every Node process)');
      profile = await profileRun(opts.commands.includes('npm') ? 'npm' : opts.commands[0]!, opts.suiteCapMs);
    } catch (e) {
      problems.push(`profiled run failed: ${(e as Error).message}`);
    }
  }

  const results = write(profile, false);
  process.stdout.write(renderMarkdown(results));
  log(`wrote ${join(opts.out, 'results.md')}, results.json and readme-section.md (for the README's "How it compares") in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`bench: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(2);
  },
);
