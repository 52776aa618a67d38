/**
 * A preload in every Node process of a measured run: NODE_OPTIONS `--require` (`--cpu-prof` is not
 * allowed there, `--require` is), plain CommonJS written to a temporary file since it loads before
 * tsx. The preload writes one JSON file per process into the folder named by PRELOAD_OUT_ENV.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable the preload reads to know where to write `<pid>.json`. */
export const PRELOAD_OUT_ENV = 'BENCH_PRELOAD_OUT';

export interface Preload {
  /** A scratch folder of the run (the preload's files and anything else the caller puts there). */
  dir: string;
  /** Environment for the measured command. */
  env: Record<string, string>;
  /** What every process that exited wrote. */
  records<T>(): T[];
  remove(): void;
}

export function installPreload(source: string): Preload {
  const dir = mkdtempSync(join(tmpdir(), 'bench-preload-'));
  const out = join(dir, 'processes');
  mkdirSync(out);
  const file = join(dir, 'preload.cjs');
  writeFileSync(file, source);
  return {
    dir,
    env: { [PRELOAD_OUT_ENV]: out, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --require ${file}`.trim() },
    records: <T>() =>
      readdirSync(out)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as T),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
