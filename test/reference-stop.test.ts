import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { expect, test } from '@playwright/test';
import { ROOT } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

/** Whether `url` answers within `timeoutMs` (a reference just started, on a loaded machine, is given longer). */
function answers(url: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Starts the reference as given, returns its launcher and the base URL it printed. */
async function launch(command: string, args: string[]): Promise<{ child: ReturnType<typeof spawn>; baseUrl: string }> {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no base URL printed: ${out} ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^baseUrl: (http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { child, baseUrl };
}

async function stopsAnswering(url: string): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (!(await answers(url))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('`npm run reference -- --port N & kill $!` leaves nothing answering: the reference stops with its launcher', async () => {
  // Port 0: any free port (a fixed or random one can be taken by another test's connection under load);
  // the printed base URL says which.
  const { child, baseUrl } = await launch('npm', [
    'run',
    '--silent',
    'reference',
    '--',
    '--port',
    '0',
    '--regional-port',
    '0',
  ]);
  try {
    expect(await answers(`${baseUrl}/`, 15_000)).toBe(true);
    // npm alone gets the signal, as `kill $!` sends it: npm does not pass it on to the wrappers below.
    child.kill('SIGTERM');
    expect(await stopsAnswering(`${baseUrl}/`)).toBe(true);
  } finally {
    child.kill('SIGKILL');
  }
});

for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
  test(`the reference stops on ${signal}`, async () => {
    const { child, baseUrl } = await launch(process.execPath, [
      `${ROOT}/node_modules/tsx/dist/cli.mjs`,
      'reference/main.ts',
      '--port',
      '0',
      '--regional-port',
      '0',
    ]);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      expect(await answers(`${baseUrl}/`, 15_000)).toBe(true);
      child.kill(signal);
      expect(await stopsAnswering(`${baseUrl}/`)).toBe(true);
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
  });
}
