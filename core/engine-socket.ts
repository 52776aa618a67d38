import { createConnection, createServer, type Server } from 'node:net';
import type { CheckOutcome } from './check.ts';

/**
 * The line protocol between the Playwright tests (in a worker process) and the run's engine (in the
 * process that runs the run): a test asks for its check's outcome, the engine answers when the check
 * has run. Workers hold no state: a worker that Playwright replaces loses nothing.
 */
export interface OutcomeAnswer {
  outcome: CheckOutcome;
  /**
   * The runner's own reporter marks a failing check's result as failed (cli/playwright/host-reporter.ts),
   * so the test need not throw; a test that throws costs a new worker process (about 0.6 s each).
   */
  reportedByHost: boolean;
}

export function serveOutcomes(path: string, answer: (checkId: string) => Promise<OutcomeAnswer>): Promise<Server> {
  const server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const checkId = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        answer(checkId).then(
          (a) => socket.write(JSON.stringify(a) + '\n'),
          (e: unknown) => socket.write(JSON.stringify({ error: (e as Error)?.message ?? String(e) }) + '\n'),
        );
      }
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

export function askOutcome(path: string, checkId: string): Promise<OutcomeAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(checkId + '\n'));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      socket.end();
      const answer = JSON.parse(buffered.slice(0, nl)) as OutcomeAnswer | { error: string };
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
    socket.on('error', reject);
  });
}
