/**
 * `npm run bench`: the suite's targets side by side, timed by hyperfine (bench/side-by-side.ts: the
 * loopback row, start-up and the default run by npm + tsx, tsx and the compiled package, the suite and
 * the peers on one reference and on the independent server, targets that fail every check; then the
 * latency row, the independent server behind a 50 ms-per-request proxy), then the verdict rows: the
 * suite and other API testing tools (Dredd, Schemathesis) against the plain reference, every conformant
 * variant and every fault of the catalogue (bench/catalogue.ts). Prints Markdown and writes
 * bench/out/results.md, results.json and hyperfine's JSON exports (after every target, so an interrupted
 * bench leaves its data), and, when it ends, the results file bench/RESULTS.md (bench/results-file.ts:
 * the printed tables under one header of date, command, commit and machine). Not part of `npm test`.
 *
 *   npm run bench                    # full: 5 timed runs per contender, conformant variants (3 runs each), every fault (1 run)
 *   npm run bench -- --quick         # 3 timed runs per contender, conformant variants and 5 faults, 1 run each
 *   npm run bench -- --rows latency  # one row alone (npm run bench:latency)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS } from '../reference/faults/index.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { runTarget } from './catalogue.ts';
import {
  DIST_MAIN,
  distBuildCommit,
  distBuildTime,
  ensureDist,
  useDistMain,
  useNode,
  type SuiteCommand,
} from './commands.ts';
import { dredd } from './peers/dredd.ts';
import type { PeerTool } from './peers/peer.ts';
import { schemathesis } from './peers/schemathesis.ts';
import type { BenchResults, PeerInfo, TargetKind, TargetResult } from './results.ts';
import { RESULTS_FILE, writeResultsFile } from './results-file.ts';
import { ROOT, SEED } from './root.ts';
import { hyperfineVersion } from './run.ts';
import { latency, loopback, type SideBySide } from './side-by-side.ts';
import { renderMarkdown } from './table.ts';

const ROWS = ['side-by-side', 'latency', 'catalogue'] as const;
type Row = (typeof ROWS)[number];

const USAGE = `usage: npm run bench -- [options]

  --quick                 3 timed runs per contender, 5 faults, conformant variants 1 run each
  --rows a,b              rows to run: side-by-side, latency, catalogue (default all three)
  --runs N                timed runs per contender under hyperfine (default 5; --quick 3)
  --delay MS              the latency row's delay per request (default 50)
  --commands a,b          commands compared side by side: npm, tsx, dist (default all three)
  --build                 rebuild dist/ with \`npm run build\` first (built anyway when missing or older than a source)
  --dist-main FILE        the compiled command to measure instead of dist/cli/main.js (e.g. an installed package's)
  --node FILE             the Node.js binary the suite's commands run on (default: the bench's own, ${process.version})
  --variant-runs N        verdict runs per conformant variant (default 3; --quick 1; faults always 1)
  --faults a,b            only these faults (names from reference/faults/; none for no fault)
  --variants a,b          only these conformant variants (names from reference/variants.ts; none for no variant)
  --no-peers              do not run Dredd and Schemathesis
  --no-install            do not install a missing peer into .cache/peers/
  --max-examples N        Schemathesis --max-examples (default 25)
  --peer-cap S            wall-time cap of one peer run in seconds (default 120)
  --suite-cap S           wall-time cap of one suite run in seconds (default 180)
  --out DIR               where results.md and results.json go (default bench/out)
  --results FILE          the results file written when the bench ends (default bench/RESULTS.md)
  --help                  this text

Timing side by side is hyperfine's (Debian: apt-get install hyperfine).`;

interface BenchOptions {
  quick: boolean;
  rows: Row[];
  runs: number;
  delayMs: number;
  commands: SuiteCommand[];
  build: boolean;
  distMain?: string;
  node?: string;
  variantRuns: number;
  faults?: string[];
  variants?: string[];
  peers: boolean;
  install: boolean;
  maxExamples: number;
  peerCapMs: number;
  suiteCapMs: number;
  out: string;
  results: string;
}

function parse(argv: string[]): BenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean' },
      rows: { type: 'string' },
      runs: { type: 'string' },
      delay: { type: 'string' },
      commands: { type: 'string' },
      build: { type: 'boolean' },
      'dist-main': { type: 'string' },
      node: { type: 'string' },
      'variant-runs': { type: 'string' },
      faults: { type: 'string' },
      variants: { type: 'string' },
      'no-peers': { type: 'boolean' },
      'no-install': { type: 'boolean' },
      'max-examples': { type: 'string' },
      'peer-cap': { type: 'string' },
      'suite-cap': { type: 'string' },
      out: { type: 'string' },
      results: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return undefined;
  const int = (name: string, v: string | undefined, fallback: number, min = 1, max = 1000) => {
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw new Error(`--${name} takes a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  const list = <T extends string>(name: string, v: string, allowed: readonly T[]): T[] => {
    const xs = v.split(',').map((c) => c.trim());
    if (xs.length === 0 || xs.some((x) => !allowed.includes(x as T)))
      throw new Error(`--${name} takes ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
    return [...new Set(xs)] as T[];
  };
  const quick = values.quick ?? false;
  return {
    quick,
    rows: list('rows', values.rows ?? ROWS.join(','), ROWS),
    runs: int('runs', values.runs, quick ? 3 : 5, 1, 50),
    delayMs: int('delay', values.delay, 50, 0, 10_000),
    commands: list('commands', values.commands ?? 'npm,tsx,dist', ['npm', 'tsx', 'dist'] as const),
    build: values.build ?? false,
    ...(values['dist-main'] ? { distMain: resolve(values['dist-main']) } : {}),
    ...(values.node ? { node: resolve(values.node) } : {}),
    variantRuns: int('variant-runs', values['variant-runs'], quick ? 1 : 3, 1, 20),
    ...(values.faults ? { faults: names(values.faults) } : {}),
    ...(values.variants ? { variants: names(values.variants) } : {}),
    peers: !values['no-peers'],
    install: !values['no-install'],
    maxExamples: int('max-examples', values['max-examples'], 25, 1, 1000),
    peerCapMs: int('peer-cap', values['peer-cap'], 120, 5, 1800) * 1000,
    suiteCapMs: int('suite-cap', values['suite-cap'], 180, 10, 1800) * 1000,
    out: values.out ? resolve(values.out) : join(ROOT, 'bench', 'out'),
    results: values.results ? resolve(values.results) : RESULTS_FILE,
  };
}

function log(msg: string): void {
  process.stderr.write(`bench: ${msg}\n`);
}

/** A comma-separated list of names; `none` is the empty list. */
function names(list: string): string[] {
  const out = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return out.length === 1 && out[0] === 'none' ? [] : out;
}

/** The entries of `all` named in `names`, or undefined after saying which names are unknown. */
function pickNamed<T extends { name: string }>(
  all: readonly T[],
  names: readonly string[],
  what: string,
): T[] | undefined {
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
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
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
  for (const t of targets)
    for (const s of t.suite) if (s.checks > 0) counts.set(s.checks, [...(counts.get(s.checks) ?? []), t.name]);
  if (counts.size <= 1) return [];
  return [
    `the suite changed during the bench (the working tree was edited): ${[...counts].map(([n, names]) => `${n} checks in ${[...new Set(names)].length} target(s), e.g. ${names[0]}`).join('; ')}`,
  ];
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
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const loadavgStart = loadavg();
  const problems: string[] = [];
  const rows = new Set(opts.rows);
  const hyperfine = hyperfineVersion();
  if (!hyperfine && (rows.has('side-by-side') || rows.has('latency'))) {
    process.stderr.write(
      'bench: hyperfine is not installed, and it times the rows side by side (Debian: apt-get install hyperfine; or --rows catalogue)\n',
    );
    return 2;
  }

  // The catalogue as it is now (other files may add faults at any time: never a fixed list).
  let faults = opts.faults ? pickNamed(FAULTS, opts.faults, 'fault') : [...FAULTS];
  // A variant whose target file the command line refuses at its preflight (exit 2 by design) has no verdict run.
  const runnable = CONFORMANT_VARIANTS.filter((v) => v.refusedByPreflight === undefined);
  const variants = opts.variants ? pickNamed(runnable, opts.variants, 'variant') : [...runnable];
  if (!faults || !variants) return 2;
  if (!opts.faults && opts.quick) faults = spreadPick(FAULTS, 5);

  // Another Node.js for the suite's commands (a release with its own compile cache, say): the versions say which ran.
  let suiteNodeVersion: string | undefined;
  if (opts.node) {
    suiteNodeVersion = commandOutput(opts.node, ['--version']);
    if (!suiteNodeVersion?.startsWith('v')) {
      process.stderr.write(
        `bench: --node ${opts.node}: not a Node.js binary that runs here (\`${opts.node} --version\` failed)\n`,
      );
      return 2;
    }
    useNode(opts.node);
    problems.push(
      `the suite's commands ran on Node.js ${suiteNodeVersion} (--node ${opts.node}), the bench and its peers on ${process.version}`,
    );
  }

  const needsDist = rows.has('latency') || (rows.has('side-by-side') && opts.commands.includes('dist'));
  if (opts.distMain) {
    if (!existsSync(opts.distMain)) {
      process.stderr.write(`bench: --dist-main ${opts.distMain}: no such file\n`);
      return 2;
    }
    useDistMain(opts.distMain);
    problems.push(`the compiled command measured is ${opts.distMain} (--dist-main), not this tree's dist/`);
  } else if (needsDist) {
    const built = ensureDist(opts.build, log);
    if (built) problems.push(built);
  }

  const plans: Plan[] = !rows.has('catalogue')
    ? []
    : [
        {
          name: 'reference',
          kind: 'reference' as const,
          description: 'the reference implementation, default options, served by the bench (`--target`)',
          options: {},
          runs: opts.variantRuns,
        },
        ...variants.map((v) => ({
          name: v.name,
          kind: 'conformant' as const,
          description: v.description,
          options: v.options,
          runs: opts.variantRuns,
        })),
        ...faults.map((f) => ({
          name: f.name,
          kind: 'fault' as const,
          description: f.description,
          options: { faults: [f.name] },
          breaks: [...f.breaks],
          runs: 1,
        })),
      ];

  // Peers: installed on demand into .cache/peers/, or said plainly why not.
  const tools: PeerTool[] = [dredd, schemathesis(opts.maxExamples, SEED)];
  const peerInfo: PeerInfo[] = [];
  const usable: PeerTool[] = [];
  for (const tool of tools) {
    if (!opts.peers) {
      peerInfo.push({
        name: tool.name,
        available: false,
        reason: 'skipped (--no-peers)',
        configuration: tool.configuration,
      });
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
  const targets: TargetResult[] = [];
  let side: SideBySide | undefined;
  let late: SideBySide | undefined;
  /** Writes what has been measured so far (after every target, so an interrupted bench leaves its data). */
  const write = (partial: boolean): BenchResults => {
    const versions: Record<string, string> = {
      node: process.version,
      ...(suiteNodeVersion ? { "node (the suite's commands)": suiteNodeVersion } : {}),
      '@playwright/test': versionOf('@playwright/test'),
      tsx: versionOf('tsx'),
      ajv: versionOf('ajv'),
      'fast-check': versionOf('fast-check'),
      'conformance-suite': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
        .version,
      ...(hyperfine ? { hyperfine } : {}),
    };
    const commit = commandOutput('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']);
    if (commit)
      versions['commit'] =
        `${commit}${commandOutput('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : ''}`;
    if (distAtStart && needsDist && !opts.distMain)
      versions['dist/ built from'] = `${distAtStart} (at the start of the bench)`;
    const python = commandOutput('python3', ['--version']);
    if (python && opts.peers) versions['python (peer only)'] = python.replace(/^Python /, '');

    const cpu = cpus()[0];
    const results: BenchResults = {
      date: new Date().toISOString(),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      mode: opts.quick ? 'quick' : 'full',
      runs: opts.variantRuns,
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
      ...(late ? { latency: late } : {}),
      targets,
      problems: [
        ...problems,
        ...suiteChanged(targets),
        ...(distBuildTime() !== distBuiltAt && needsDist && !opts.distMain
          ? [
              'dist/ was rebuilt while the bench ran (by another process): the compiled runs after that ran another build',
            ]
          : []),
      ],
      elapsedMs: performance.now() - started,
      partial,
    };
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(opts.out, 'results.md'), renderMarkdown(results));
    return results;
  };

  const scratch = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    const common = {
      runs: opts.runs,
      capMs: opts.suiteCapMs,
      out: opts.out,
      log,
      problem: (p: string) => problems.push(p),
    };
    if (rows.has('side-by-side')) {
      mkdirSync(join(scratch, 'side-by-side'));
      side = await loopback({ ...common, dir: join(scratch, 'side-by-side'), commands: opts.commands, peers: usable });
      write(true);
    }
    if (rows.has('latency')) {
      mkdirSync(join(scratch, 'latency'));
      const st = peerInfo.find((p) => p.name === 'Schemathesis' && p.available);
      late = await latency({
        ...common,
        capMs: Math.max(opts.suiteCapMs, opts.peerCapMs),
        dir: join(scratch, 'latency'),
        delayMs: opts.delayMs,
        distMain: opts.distMain ?? DIST_MAIN,
        ...(st?.version ? { schemathesis: { version: st.version, maxExamples: opts.maxExamples } } : {}),
      });
      write(true);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  let i = 0;
  for (const plan of plans) {
    i++;
    const t: TargetResult = {
      name: plan.name,
      kind: plan.kind,
      description: plan.description,
      suite: [],
      peers: {},
      ...(plan.breaks ? { breaks: plan.breaks } : {}),
    };
    targets.push(t);
    const parts = await runTarget(t, plan.options, plan.runs, {
      suiteCapMs: opts.suiteCapMs,
      peerCapMs: opts.peerCapMs,
      peers: usable,
      problem: (p) => problems.push(p),
    });
    log(`[${i}/${plans.length}] ${plan.kind} ${plan.name}: ${parts.join(', ')}`);
    write(true);
  }

  const results = write(false);
  writeResultsFile(results, opts.results);
  process.stdout.write(renderMarkdown(results));
  log(
    `wrote ${opts.results}, and ${join(opts.out, 'results.md')} and results.json, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`bench: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(2);
  },
);
