import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a run's processes leave the environment they started with: the environment a process
 * Playwright starts inherits, and what /proc/<pid>/environ shows. `nodeOptions` goes into the run's
 * NODE_OPTIONS: every Node process of the run (the command, Playwright's runner, its worker) then
 * writes its own file as it starts, with the name of its entry script (never its arguments: the
 * command's hold its options; a thread's is "undefined").
 */
export function envDumps(): { nodeOptions: string; read: () => Array<{ script: string; env: string }> } {
  const dir = mkdtempSync(join(tmpdir(), 'env-dump-'));
  const preload = join(dir, 'dump.cjs');
  writeFileSync(
    preload,
    // A thread of the process (a module loader's) preloads it too: its own file, beside the process's.
    `const { threadId } = require('node:worker_threads');\nrequire('node:fs').writeFileSync(${JSON.stringify(dir)} + '/' + process.pid + '-' + threadId + '.json', JSON.stringify({ script: String(process.argv[1]), env: JSON.stringify(process.env) }));\n`,
  );
  return {
    nodeOptions: [process.env['NODE_OPTIONS'], `--require ${preload}`].filter(Boolean).join(' '),
    read: () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { script: string; env: string }),
  };
}
