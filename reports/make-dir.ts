import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` in a bounded number of steps: one non-recursive mkdir per missing ancestor, from the
 * deepest existing one down. Node's own recursive mkdir loops without end on some file systems
 * (`--report-dir /proc/nope` spun a CPU for minutes); here every error ends the walk at once, and
 * the caller turns it into its one line.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      mkdirSync(at);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') break;
      if (code !== 'ENOENT' || dirname(at) === at) throw e;
      missing.push(at);
    }
  }
  for (const at of missing.reverse()) mkdirSync(at);
}
