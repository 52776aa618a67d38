import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseCli } from '../cli/args.ts';
import { RunHost } from '../cli/playwright/run-host.ts';
import { settingsOf } from '../cli/prepare-run.ts';
import { runCommand } from '../cli/run-command.ts';
import { askOutcome, askRunnerStart, engineSocketPath } from '../playwright/engine-socket.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { referenceTarget, testSettings } from './support/harness.ts';

// The command opens the engine's socket before its preflight (cli/run-command.ts): Playwright's runner
// gets the listing and the keys at once, but no check may send a request before the run begins.
test('an open host serves the listing and the keys, and answers a test only once the run begins, sending nothing before', async () => {
  const server = await startReference();
  const target = referenceTarget(server);
  const run = {
    settings: testSettings(mkdtempSync(join(tmpdir(), 'run-host-'))),
    target,
    suite: { name: 's', version: '0', commit: 'x' },
    embedded: false,
  };
  const host = await RunHost.open(run, undefined, engineSocketPath());
  try {
    const start = await askRunnerStart(host.socketPath);
    expect((JSON.parse(start.listing) as Array<{ id: string }>).map((c) => c.id)).toContain('files.file.id');
    expect(start.keys.map((k) => k.value)).toEqual([target.apiKey, target.restrictedApiKey]);
    let answered = false;
    const answer = askOutcome(host.socketPath, 'files.file.id').then((a) => ((answered = true), a));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ answered, requests: server.received.length }).toEqual({ answered: false, requests: 0 });
    host.begin();
    expect((await answer).outcome.status).toBe('pass');
    expect(server.received.length).toBeGreaterThan(0);
  } finally {
    await host.close();
    await server.close();
  }
});

// A signal that arrives as the preflight ends: the early handler (cli/conformance.ts) clears the
// report and exits, and the engine must not begin in between (engineStarts() says false).
test('when a signal came before the engine starts, the command sends nothing past the preflight and ends Playwright', async () => {
  const server = await startReference();
  const dir = mkdtempSync(join(tmpdir(), 'run-command-'));
  const file = join(dir, 'target.yaml');
  writeFileSync(file, referenceTargetYaml(server));
  const env = referenceKeyEnv(server);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const playwright = spawn('sleep', ['30']);
  const write = process.stdout.write;
  try {
    const opts = parseCli(['--target', file, '--seed', '3', '--report-dir', join(dir, 'report')]);
    const settings = settingsOf(opts, dir);
    let asked!: () => void;
    const engineAsked = new Promise<'asked'>((resolve) => (asked = () => resolve('asked')));
    process.stdout.write = (() => true) as typeof process.stdout.write;
    const run = runCommand({
      opts,
      settings,
      playwright,
      socketPath: engineSocketPath(),
      started: performance.now(),
      engineStarts: () => (asked(), false),
    });
    let settled = false;
    void run.then(
      () => (settled = true),
      () => (settled = true),
    );
    // However long the preflight takes on a loaded machine: the command asks whether the engine may
    // start, is told no, ends Playwright and never goes on (the signal's handler ends the process).
    const first = await Promise.race([
      engineAsked,
      run.then(
        () => 'settled',
        () => 'settled',
      ),
    ]);
    const exited =
      playwright.exitCode !== null || playwright.signalCode !== null ? Promise.resolve() : once(playwright, 'exit');
    await exited;
    process.stdout.write = write;
    expect({ first, settled, killed: playwright.signalCode, requests: server.received.length }).toEqual({
      first: 'asked',
      settled: false,
      killed: 'SIGKILL',
      requests: settings.requestsBefore,
    });
    expect(settings.requestsBefore).toBeGreaterThan(0);
  } finally {
    process.stdout.write = write;
    playwright.kill('SIGKILL');
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await server.close();
  }
});
