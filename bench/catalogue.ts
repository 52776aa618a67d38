/**
 * The verdict rows: the suite and each peer against the plain reference, every conformant variant and
 * every fault of the catalogue, each served by a reference started here with its options and described
 * by a target file, as a user runs the suite against a deployment. What each run says is the row; its
 * wall is that one run's (the timing side by side is hyperfine's, in bench/side-by-side.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { suiteArgv } from './commands.ts';
import { runPeer, type PeerTool } from './peers/peer.ts';
import type { TargetResult } from './results.ts';
import { SEED } from './root.ts';
import { runOnce } from './run.ts';
import { suiteOutcome } from './suite-run.ts';

export interface CatalogueOptions {
  suiteCapMs: number;
  peerCapMs: number;
  peers: readonly PeerTool[];
  problem(s: string): void;
}

/** `f` against a fresh reference with `options` (a fresh one per run: its state starts anew, as a run's would). */
async function onReference<T>(
  options: Partial<ReferenceOptions>,
  f: (server: Awaited<ReturnType<typeof startReference>>) => Promise<T>,
): Promise<T> {
  const server = await startReference(options);
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

/** `runs` runs of the suite (by tsx: the working tree as it is) and of each peer against a reference with `options`. */
export async function runTarget(
  t: TargetResult,
  options: Partial<ReferenceOptions>,
  runs: number,
  o: CatalogueOptions,
): Promise<string[]> {
  const parts: string[] = [];
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-target-'));
    try {
      const s = await onReference(options, async (server) => {
        writeFileSync(join(dir, 'target.yaml'), referenceTargetYaml(server));
        const argv = suiteArgv('tsx', [
          '--target',
          join(dir, 'target.yaml'),
          '--seed',
          String(SEED),
          '--report-dir',
          join(dir, 'report'),
        ]);
        return suiteOutcome(
          await runOnce(argv, { cwd: dir, env: { ...referenceKeyEnv(server), FORCE_COLOR: '0' }, capMs: o.suiteCapMs }),
          join(dir, 'report'),
        );
      });
      t.suite.push(s);
      if (s.problem) o.problem(`${t.kind} ${t.name}: the suite run did not complete: ${s.problem}`);
      parts.push(`suite ${(s.wallMs / 1000).toFixed(2)} s ${s.verdict} ${s.requests} req`);
    } catch (e) {
      o.problem(`${t.kind} ${t.name}: the suite could not be run: ${(e as Error).message}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const tool of o.peers) {
      try {
        const p = await onReference(options, async (server) => ({
          ...(await runPeer(tool, server.baseUrl, server.keys.management, o.peerCapMs)),
          requests: server.received.length,
        }));
        (t.peers[tool.name] ??= []).push(p);
        if (p.problem) o.problem(`${tool.name} on ${t.name}: ${p.problem}`);
        if (p.timedOut) o.problem(`${tool.name} on ${t.name}: killed at the ${o.peerCapMs / 1000} s cap`);
        parts.push(`${tool.name} ${(p.wallMs / 1000).toFixed(1)} s exit ${p.exitCode} ${p.failures.length} failures`);
      } catch (e) {
        o.problem(`${tool.name} on ${t.name}: could not be run: ${(e as Error).message}`);
      }
    }
  }
  return parts;
}
