/** What the bench needs from another API testing tool run against the same reference servers. */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import { measure } from '../spawn.ts';

export const PEERS_DIR = join(ROOT, '.cache', 'peers');
export const SPEC = join(ROOT, 'spec', 'openapi.yaml');

export interface PeerRun {
  exitCode: number | null;
  timedOut: boolean;
  wallMs: number;
  cpuS?: number;
  maxRssSingleKb?: number;
  /** Requests the reference received during the run. */
  requests: number;
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
  /** Runs it against `baseUrl` with the management key; requests are counted by the caller. */
  run(baseUrl: string, apiKey: string, capMs: number): Promise<Omit<PeerRun, 'requests'>>;
}

/** Runs an install command once, bounded in time; its output goes to PEERS_DIR/<name>-install.log. */
export async function install(name: string, command: string, args: string[], capMs = 600_000): Promise<string | undefined> {
  mkdirSync(PEERS_DIR, { recursive: true });
  process.stderr.write(`bench: installing ${name} into ${PEERS_DIR} ...\n`);
  try {
    const m = await measure(command, args, { cwd: ROOT, capMs, timed: false });
    if (m.code === 0) return undefined;
    return `${command} ${args.join(' ')} ${m.timedOut ? 'did not finish in time' : `exited ${m.code}`}: ${m.stderr.trim().split('\n').slice(-2).join(' / ').slice(0, 300)}`;
  } catch (e) {
    return `${command} could not be started: ${(e as Error).message}`;
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
