import { execFileSync } from 'node:child_process';
import { alive } from '../os/process.ts';

/** How often the reference looks whether its launcher still runs. */
const WATCH_MS = 250;
/** How many ancestors are looked up at most (npm → sh → tsx → node is four). */
const MAX_DEPTH = 6;

/**
 * The processes that launched this one: the parent, and, when started through npm or npx (npm sets
 * npm_execpath in its scripts' environment), every ancestor up to that npm process. `npm run
 * reference & kill $!` signals npm alone: npm dies without passing the signal on, and the wrappers
 * below it (sh, tsx) would keep the server answering; watching them all stops it with its launcher.
 */
function launchers(): number[] {
  const chain = [process.ppid];
  if (!process.env['npm_execpath']) return chain;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const pid = chain[chain.length - 1]!;
    if (isNpm(pid)) return chain;
    const parent = parentOf(pid);
    if (!parent || parent <= 1) break;
    chain.push(parent);
  }
  // No npm process found among the ancestors: the parent alone, as when started directly.
  return [process.ppid];
}

function ps(field: 'ppid' | 'args', pid: number): string {
  try {
    return execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    }).trim();
  } catch {
    return '';
  }
}

function parentOf(pid: number): number | undefined {
  const n = Number(ps('ppid', pid));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function isNpm(pid: number): boolean {
  return /(^|[/\s])(npm|npx)(-cli\.js)?(\s|$)|npm-cli\.js|npx-cli\.js/.test(ps('args', pid));
}

/** Calls `stop` once the process that launched this one (or any wrapper up to npm) has exited. */
export function stopWithLauncher(stop: (why: string) => void): void {
  const parent = process.ppid;
  const watched = launchers();
  const timer = setInterval(() => {
    if (process.ppid !== parent || watched.some((pid) => !alive(pid))) {
      clearInterval(timer);
      stop('its launcher exited');
    }
  }, WATCH_MS);
  timer.unref();
}
