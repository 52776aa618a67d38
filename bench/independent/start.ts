/**
 * The independent server of bench/independent/server.ts, started for the bench in a process of its
 * own (so that no contender's CPU counts its work), described by a target file like any deployment's.
 * It was written from the service document alone, apart from the reference: the suite's figures on it
 * are not figures on its own implementation.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import { TSX_CLI } from '../commands.ts';

/** Its keys and fixtures (bench/independent/NOTES.md). */
const KEY = 'sk-indep-test-key';
const WORKSPACE = '488fe627-3587-4a3b-beab-e22870f26b4e';
const OTHER_WORKSPACE = '859bc949-91a3-478e-944b-3ab4c494a998';

export interface IndependentServer {
  baseUrl: string;
  /** Its target file's text (the key as ${INDEPENDENT_API_KEY}) and the environment that holds the key. */
  yaml: string;
  env: Record<string, string>;
  apiKey: string;
  close(): Promise<void>;
}

export async function startIndependent(timeoutMs = 30_000): Promise<IndependentServer> {
  const child = spawn(process.execPath, [TSX_CLI, join(ROOT, 'bench', 'independent', 'server.ts'), '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise<void>((r) => child.once('exit', () => r()));
  const close = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await closed;
  };
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the independent server did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the independent server exited (${code}) before listening`));
    });
  }).catch(async (e: unknown) => {
    await close();
    throw e;
  });
  const yaml = [
    `baseUrl: ${baseUrl}`,
    'apiKey: ${INDEPENDENT_API_KEY}',
    'containerFiles:',
    '  containerId: cntr_indep',
    '  restartedContainerId: cntr_indep-r9k2m4',
    'modelEndpoints:',
    '  model: indep-labs/wren-8b-instruct',
    '  missingModel: indep-labs/does-not-exist',
    'interns:',
    `  workspaceId: ${WORKSPACE}`,
    `  otherWorkspaceId: ${OTHER_WORKSPACE}`,
    '  params: { limit: limit, status: status, workspace: workspaceId }',
    '  cursorParam: after',
    '',
  ].join('\n');
  return { baseUrl, yaml, env: { INDEPENDENT_API_KEY: KEY }, apiKey: KEY, close };
}
