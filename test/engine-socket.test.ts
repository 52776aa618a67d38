import { expect, test } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import {
  askOutcome,
  closeEngineServer,
  engineSocketPath,
  OutcomeFollower,
  serveOutcomes,
  type EngineHandlers,
  type OutcomeAnswer,
} from '../playwright/engine-socket.ts';

/** Handlers over checks that settle when the test says so, counting what the engine was asked. */
function fakeEngine(planned: readonly string[]) {
  const settle = new Map<string, (a: OutcomeAnswer) => void>();
  const answers = new Map<string, Promise<OutcomeAnswer>>();
  const asked: string[] = [];
  const answer = (id: string) => {
    let known = answers.get(id);
    if (!known) {
      known = new Promise<OutcomeAnswer>((resolve) => settle.set(id, resolve));
      answers.set(id, known);
    }
    return known;
  };
  const handlers: EngineHandlers = {
    outcome: (id) => {
      asked.push(id);
      return id === 'no.such.check' ? Promise.reject(new Error(`no declared check ${id}`)) : answer(id);
    },
    planned: async () => planned,
    plan: () => undefined,
    listing: () => '[]',
    keys: () => [],
  };
  const outcomeOf = (checkId: string): OutcomeAnswer => ({
    outcome: { checkId, status: 'pass', failures: [], observations: [], requests: 1, seed: 1 } as CheckOutcome,
    reportedByHost: true,
    gating: false,
  });
  return { handlers, asked, pass: (id: string) => settle.get(id)!(outcomeOf(id)), settled: (id: string) => answer(id) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

// playwright/engine-socket.ts: a worker's tests must not wait on the engine's event loop to accept and read a
// question (the loop is busy while the engine runs, and the worker's tests would queue behind it), so the planned checks' outcomes are sent as they settle, on one connection.
test('a follower receives the planned outcomes as they settle, in any order, and asks for an unplanned one on the same connection', async () => {
  const engine = fakeEngine(['a', 'b']);
  const path = engineSocketPath();
  const server = await serveOutcomes(path, engine.handlers);
  let connections = 0;
  server.on('connection', () => connections++);
  try {
    const follower = new OutcomeFollower(path);
    const b = follower.outcome('b');
    await tick();
    expect(engine.asked.sort(), 'the planned checks, each once').toEqual(['a', 'b']);
    engine.pass('a');
    await tick();
    // Settled before any test asked: kept, answered at once.
    expect((await follower.outcome('a')).outcome.checkId).toBe('a');
    engine.pass('b');
    expect((await b).outcome.checkId).toBe('b');
    const c = follower.outcome('c');
    await tick();
    expect(engine.asked, 'an unplanned check is asked for').toContain('c');
    engine.pass('c');
    expect((await c).outcome.checkId).toBe('c');
    await expect(follower.outcome('no.such.check')).rejects.toThrow('no declared check no.such.check');
    expect(connections, 'one connection').toBe(1);
  } finally {
    await closeEngineServer(server);
  }
});

test("a follower's waiting tests fail with the reason when the engine's server closes; a one-question client still gets its answer", async () => {
  const engine = fakeEngine(['a']);
  const path = engineSocketPath();
  const server = await serveOutcomes(path, engine.handlers);
  const follower = new OutcomeFollower(path);
  const waiting = follower.outcome('a');
  const asked = askOutcome(path, 'x');
  await tick();
  engine.pass('x');
  expect((await asked).outcome.checkId).toBe('x');
  // Closing ends the follower's open connection: no worker keeps the command from ending.
  await closeEngineServer(server);
  await expect(waiting).rejects.toThrow("the run's engine closed the connection");
  await expect(follower.outcome('b')).rejects.toThrow("the run's engine closed the connection");
});

test('a follower started before the engine listens connects once it does', async () => {
  const engine = fakeEngine(['a']);
  const path = engineSocketPath();
  const follower = new OutcomeFollower(path);
  const a = follower.outcome('a');
  await tick();
  const server = await serveOutcomes(path, engine.handlers);
  try {
    await tick();
    engine.pass('a');
    expect((await a).outcome.checkId).toBe('a');
  } finally {
    await closeEngineServer(server);
  }
});

test('a worker follows the run as soon as its tests are registered; the runner, which registers them to list them, does not', async () => {
  const { followTheRun, ENGINE_SOCKET_ENV } = await import('../playwright/playwright-tests.ts');
  const engine = fakeEngine(['a']);
  const path = engineSocketPath();
  const server = await serveOutcomes(path, engine.handlers);
  let connections = 0;
  server.on('connection', () => connections++);
  try {
    expect(followTheRun({ [ENGINE_SOCKET_ENV]: path })).toBeUndefined();
    await tick();
    expect(connections, 'the runner').toBe(0);
    const follower = followTheRun({ [ENGINE_SOCKET_ENV]: path, TEST_WORKER_INDEX: '0' });
    expect(follower).toBeInstanceOf(OutcomeFollower);
    await tick();
    expect(connections, 'the worker, before any test asks').toBe(1);
    expect(engine.asked, 'the planned checks are followed').toEqual(['a']);
    expect(followTheRun({ [ENGINE_SOCKET_ENV]: path, TEST_WORKER_INDEX: '0' }), 'one follower a worker').toBe(follower);
  } finally {
    await closeEngineServer(server);
  }
});
