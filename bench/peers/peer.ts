/** What the bench needs from another API testing tool run against the same servers as the suite. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import { runOnce, tail, type Ran } from '../run.ts';

export const PEERS_DIR = join(ROOT, '.cache', 'peers');
export const SPEC = join(ROOT, 'spec', 'openapi.yaml');

export interface PeerRun {
  exitCode: number | null;
  timedOut: boolean;
  /** Spawn to exit of this run (one run: not a timing). */
  wallMs: number;
  /** Requests the server received during the run, when the bench could count them. */
  requests?: number;
  /** One signature per distinct failure the tool reported (tool-specific: operation + check). */
  failures: string[];
  problem?: string;
}

export interface PeerTool {
  /** Column name. */
  name: string;
  /** How it was configured, for the table's notes. */
  configuration: string;
  /** Installed (or installs it when `install`), or says why it cannot be used. */
  ensure(install: boolean): Promise<{ ok: true; version: string } | { ok: false; reason: string }>;
  /** The command line against `baseUrl` with the management key; what it writes goes into `dir`. */
  argv(baseUrl: string, apiKey: string, dir: string): string[];
  /** The failures a run reported (its output, or what it wrote into `dir`). */
  read(r: Ran, dir: string): { failures: string[]; problem?: string };
}

/** One run of `tool` to its end, in a scratch folder of its own. */
export async function runPeer(tool: PeerTool, baseUrl: string, apiKey: string, capMs: number): Promise<PeerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-peer-'));
  try {
    const r = await runOnce(tool.argv(baseUrl, apiKey, dir), {
      cwd: dir,
      env: { PYTHONDONTWRITEBYTECODE: '1' },
      capMs,
    });
    const { failures, problem } = tool.read(r, dir);
    return { exitCode: r.code, timedOut: r.timedOut, wallMs: r.wallMs, failures, ...(problem ? { problem } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs an install command once, bounded in time. */
export async function install(name: string, argv: string[], capMs = 600_000): Promise<string | undefined> {
  mkdirSync(PEERS_DIR, { recursive: true });
  process.stderr.write(`bench: installing ${name} into ${PEERS_DIR} ...\n`);
  try {
    const r = await runOnce(argv, { cwd: ROOT, capMs });
    return r.code === 0
      ? undefined
      : `${argv.join(' ')} ${r.timedOut ? 'did not finish in time' : `exited ${r.code}`}: ${tail(r)}`;
  } catch (e) {
    return `${argv[0]} could not be started: ${(e as Error).message}`;
  }
}

export function exists(path: string): boolean {
  return existsSync(path);
}

/** Adds `#n` to repeated signatures so that two failures with one name are both counted. */
export function numbered(signatures: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return signatures.map((s) => {
    const n = (seen.get(s) ?? 0) + 1;
    seen.set(s, n);
    return n === 1 ? s : `${s} #${n}`;
  });
}
