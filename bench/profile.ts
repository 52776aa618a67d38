/**
 * Where the CPU time of one run goes: one default run (the embedded reference) with V8's sampling
 * profiler switched on in every Node process of the tree (a `--require` preload), then each
 * process's samples grouped by what the code belongs to (Playwright, its TypeScript transform, tsx,
 * ajv compilation, the suite's own folders, ...). The profiler slows the run down by a few percent;
 * the shares matter, not the absolute numbers.
 */
import { join } from 'node:path';
import { commandLabel, suiteArgv, type SuiteCommand } from './commands.ts';
import { installPreload, PRELOAD_OUT_ENV } from './preload.ts';
import { roleOf } from './probe.ts';
import { ROOT, SEED } from './root.ts';
import { measure } from './spawn.ts';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProcessProfile {
  process: string;
  /** ms since the spawn of the CLI */
  startMs: number;
  endMs: number;
  /** Sampled time not idle, ms. */
  busyMs: number;
  /** ms per category, largest first. */
  categories: Array<{ category: string; ms: number }>;
}

export interface ProfileResult {
  /** The command profiled (a default run: no target, the embedded reference). */
  command: string;
  wallMs: number;
  processes: ProcessProfile[];
}

const MODULE_LOADING = /^(wrapSafe|compileSourceTextModule|compileForInternalLoader|makeSyncRequest|makeAsyncRequest|waitForWorker|compileFunction|parseSource|instantiate|importModuleDynamically)$/;
const FS_NATIVE = /^(writeUtf8String|writeLatin1String|writeBuffer|writeString|writev|mkdir|rmdir|rmSync|readFileUtf8|open|close|read|stat|lstat|readdir|unlink|rename|fsync)$/;
const STACKS = /^(cloneCallSite|wrapCallSite|prepareStackTrace|captureRawStack|filteredStackTrace|parseStackFrame|captureStackTrace|getStackTrace|stackTraceLine)$/;

function category(functionName: string, url: string): string {
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 / native (program)';
  if (MODULE_LOADING.test(functionName) || url.includes('node:internal/modules/') || url.includes('cjs-module-lexer')) return 'module loading (compile, ESM loader hooks)';
  if (url.includes('babelBundle')) return 'Playwright: TypeScript transform (babel)';
  if (url.includes('/playwright/lib/transform/')) return 'Playwright: loading test files (transform, cache)';
  if (STACKS.test(functionName) || url.includes('playwright-core/lib/utilsBundle')) return 'Playwright: stack traces (source-map-support, step locations)';
  if (url.includes('/playwright-core/') || url.includes('/playwright/')) return 'Playwright: runner / worker / steps / IPC';
  if (url.includes('/node_modules/tsx/') || url.includes('/esbuild/')) return 'tsx / esbuild loader';
  if (/\/ajv\/dist\/(compile|vocabularies)\//.test(url) || url.includes('/ajv/dist/core')) return 'ajv: schema compilation';
  if (url.includes('/node_modules/ajv')) return 'ajv: other';
  if (url === '' && /^validate\d*$/.test(functionName)) return 'ajv: validation (generated code)';
  if (url.includes('/node_modules/yaml/')) return 'yaml parsing';
  if (url.includes('/node_modules/fast-check/')) return 'fast-check';
  const own = url.startsWith('file://' + ROOT) ? url.slice(('file://' + ROOT).length) : url.startsWith(ROOT) ? url.slice(ROOT.length) : undefined;
  if (own !== undefined && !own.startsWith('node_modules/')) return `suite code: ${own.split('/')[0]}/`;
  const mod = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (mod) return `other package: ${mod}`;
  if (url === '' && FS_NATIVE.test(functionName)) return 'file system (native)';
  if (url.startsWith('node:internal/fs') || url === 'node:fs') return 'file system (native)';
  if (url.startsWith('node:')) return 'Node: other internals (streams, net, child processes)';
  return 'native / anonymous';
}

function summarise(p: CpuProfile, spawnUs: number): Omit<ProcessProfile, 'process'> {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const ms = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const frame = byId.get(p.samples[i]!);
    const c = frame ? category(frame.functionName, frame.url) : 'other';
    ms.set(c, (ms.get(c) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  const busy = [...ms].filter(([c]) => c !== '(idle)').reduce((s, [, v]) => s + v, 0);
  return {
    startMs: (p.startTime - spawnUs) / 1000,
    endMs: (p.endTime - spawnUs) / 1000,
    busyMs: busy,
    categories: [...ms].filter(([c]) => c !== '(idle)').map(([category, v]) => ({ category, ms: v })).sort((a, b) => b.ms - a.ms),
  };
}

/**
 * The preload (bench/preload.ts) starts V8's profiler in every Node process of the tree and writes
 * the profile, with the process's argv, when the process exits.
 */
const PRELOAD = `
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (err, res) => {
    if (!err && res) writeFileSync(require('node:path').join(process.env.${PRELOAD_OUT_ENV}, process.pid + '.json'), JSON.stringify({ argv: process.argv, profile: res.profile }));
  });
});
`;

const ROLE_NAME = { cli: 'suite CLI (the engine, the checks; the embedded reference)', runner: 'Playwright runner (the reporters)', worker: 'Playwright worker (the tests)' } as const;

function processName(argv: readonly string[]): string {
  const role = roleOf(argv);
  if (role !== 'launcher') return ROLE_NAME[role];
  const main = argv[1] ?? '';
  if (main.includes('npm-cli')) return 'npm';
  if (main.includes('tsx')) return 'tsx launcher';
  return `other: ${main.split('/').slice(-2).join('/')}`;
}

/** One profiled default run by `command`. */
export async function profileRun(command: SuiteCommand, capMs: number): Promise<ProfileResult> {
  const preload = installPreload(PRELOAD);
  try {
    // V8 profile timestamps are CLOCK_MONOTONIC microseconds, the clock of process.hrtime.
    const spawnUs = Number(process.hrtime.bigint() / 1000n);
    const argv = suiteArgv(command, ['--seed', String(SEED), '--report-dir', join(preload.dir, 'report')]);
    const m = await measure(argv.file, argv.args, {
      cwd: ROOT,
      env: { FORCE_COLOR: '0', ...preload.env },
      capMs,
      timed: false,
    });
    if (m.code !== 0) throw new Error(`the profiled run exited ${m.code}: ${m.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    const processes = preload
      .records<{ argv: string[]; profile: CpuProfile }>()
      .map(({ argv, profile }) => ({ ...summarise(profile, spawnUs), process: processName(argv) }))
      .sort((a, b) => a.startMs - b.startMs);
    return { command: commandLabel(command), wallMs: m.wallMs, processes };
  } finally {
    preload.remove();
  }
}
