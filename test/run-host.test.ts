import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RunHost } from '../cli/playwright/run-host.ts';
import { askOutcome, askRunnerStart, engineSocketPath } from '../core/engine-socket.ts';
import { startReference } from '../reference/server.ts';
import { referenceTarget, testSettings } from './support/harness.ts';

// The command opens the engine's socket before its preflight (cli/run-command.ts): Playwright's runner
// gets the listing and the keys at once, but no check may send a request before the run begins.
test('an open host serves the listing and the keys, and answers a test only once the run begins, sending nothing before', async () => {
  const server = await startReference();
  const target = referenceTarget(server);
  const run = { settings: testSettings(mkdtempSync(join(tmpdir(), 'run-host-'))), target, suite: { name: 's', version: '0', commit: 'x' }, embedded: false };
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
