import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Client } from '../../core/http/client.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import { NodeTransport } from '../../core/http/transport.ts';
import { testSettings } from '../support/harness.ts';
import { hostileTarget, OK_JSON, startHostile, type Action } from '../support/hostile-server.ts';

// A target answering 429 four times and then once 200, over and over, never makes three unusable
// answers in a row, and would hold a run until its deadline. The retry budget caps the time all
// waits before retries take in one run: past it the run stops sending, with that reason.

const LIMITED: Action = { kind: 'json', status: 429, body: { error: { code: 429, message: 'Rate limit exceeded' } } };

test('429 four times, then 200, over and over: the retry budget stops the run within it, never holds it', async () => {
  const hostile = await startHostile((_req, i) => (i % 5 === 4 ? OK_JSON : LIMITED));
  const settings = testSettings(mkdtempSync(join(tmpdir(), 'retry-budget-')), {
    maxRetries: 3,
    retryCapMs: 200,
    retryBudgetMs: 1_500,
  });
  const transport = new NodeTransport({ timeoutMs: 2_000, bodyCapBytes: settings.bodyCapBytes });
  const client = new Client(hostileTarget(hostile.baseUrl), settings, transport);
  const outcomes: string[] = [];
  try {
    for (let i = 0; i < 40 && !client.state.stopped; i++) {
      try {
        // The same request each time, sent each time (api.fresh: the run's memory would answer it).
        await client.fresh.listModelEndpoints('hostile/model');
        outcomes.push('answered');
      } catch (e) {
        if (!(e instanceof CannotJudge)) throw e;
        outcomes.push(e.reason);
      }
    }
    // Every request meets three 429s with waits of 200 ms, then an answer (the 200, or a fourth 429).
    expect(client.state.stopped).toMatch(
      /^the target kept answering 429\/503: the retry budget of 1.5 s was spent waiting/,
    );
    expect(client.state.rateLimitedWaitMs).toBeLessThanOrEqual(1_500);
    expect(outcomes).toContain('answered');
    // Nothing more is sent once the budget is spent: the next request is refused before it leaves.
    const sent = hostile.received.length;
    await expect(client.fresh.listModelEndpoints('hostile/model')).rejects.toThrow(
      /not sent: the target kept answering 429\/503/,
    );
    expect(hostile.received.length).toBe(sent);
  } finally {
    await transport.close();
    await hostile.close();
  }
});
