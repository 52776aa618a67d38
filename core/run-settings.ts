/**
 * Settings of one conformance run. The CLI (cli/conformance.ts) decides them and hands them to the
 * Playwright processes through these environment variables; this module is the only reader.
 */
export interface RunSettings {
  targetFile: string;
  seed: number;
  numRuns: number;
  maxRequests: number;
  /** 0 means no rate limit. */
  maxRps: number;
  requestTimeoutMs: number;
  bodyCapBytes: number;
  maxRetries: number;
  retryCapMs: number;
  /** Where the run keeps its request log and other per-run state. */
  runDir: string;
  reportDir: string;
  transport: 'node' | 'playwright';
  failOn: 'must' | 'should';
  allowLiteralKeys: boolean;
  allowInsecure: boolean;
  /** fast-check replay path of a counterexample (with --seed and --grep of one check). */
  replayPath?: string;
}

export const ENV = {
  targetFile: 'CONFORMANCE_TARGET',
  seed: 'CONFORMANCE_SEED',
  numRuns: 'CONFORMANCE_NUM_RUNS',
  maxRequests: 'CONFORMANCE_MAX_REQUESTS',
  maxRps: 'CONFORMANCE_MAX_RPS',
  requestTimeoutMs: 'CONFORMANCE_REQUEST_TIMEOUT_MS',
  bodyCapBytes: 'CONFORMANCE_BODY_CAP_BYTES',
  maxRetries: 'CONFORMANCE_MAX_RETRIES',
  retryCapMs: 'CONFORMANCE_RETRY_CAP_MS',
  runDir: 'CONFORMANCE_RUN_DIR',
  reportDir: 'CONFORMANCE_REPORT_DIR',
  transport: 'CONFORMANCE_TRANSPORT',
  failOn: 'CONFORMANCE_FAIL_ON',
  allowLiteralKeys: 'CONFORMANCE_ALLOW_LITERAL_KEYS',
  allowInsecure: 'CONFORMANCE_ALLOW_INSECURE',
  replayPath: 'CONFORMANCE_REPLAY_PATH',
} as const satisfies Record<keyof RunSettings, string>;

export const DEFAULTS = {
  numRuns: 20,
  maxRequests: 2_000,
  maxRps: 0,
  requestTimeoutMs: 10_000,
  bodyCapBytes: 8 * 1024 * 1024,
  maxRetries: 3,
  retryCapMs: 5_000,
  reportDir: 'reports/latest',
  transport: 'node',
  failOn: 'must',
} as const;

function num(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const v = env[key];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${key} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

export function readRunSettings(env: NodeJS.ProcessEnv = process.env): RunSettings {
  const targetFile = env[ENV.targetFile];
  const runDir = env[ENV.runDir];
  if (!targetFile || !runDir) {
    throw new Error(`the conformance suite is started by \`npm run conformance\` (${ENV.targetFile} and ${ENV.runDir} are not set)`);
  }
  return {
    targetFile,
    runDir,
    seed: num(env, ENV.seed, 0) >>> 0,
    numRuns: num(env, ENV.numRuns, DEFAULTS.numRuns),
    maxRequests: num(env, ENV.maxRequests, DEFAULTS.maxRequests),
    maxRps: num(env, ENV.maxRps, DEFAULTS.maxRps),
    requestTimeoutMs: num(env, ENV.requestTimeoutMs, DEFAULTS.requestTimeoutMs),
    bodyCapBytes: num(env, ENV.bodyCapBytes, DEFAULTS.bodyCapBytes),
    maxRetries: num(env, ENV.maxRetries, DEFAULTS.maxRetries),
    retryCapMs: num(env, ENV.retryCapMs, DEFAULTS.retryCapMs),
    reportDir: env[ENV.reportDir] || DEFAULTS.reportDir,
    transport: env[ENV.transport] === 'playwright' ? 'playwright' : 'node',
    failOn: env[ENV.failOn] === 'should' ? 'should' : 'must',
    allowLiteralKeys: env[ENV.allowLiteralKeys] === '1',
    allowInsecure: env[ENV.allowInsecure] === '1',
    ...(env[ENV.replayPath] ? { replayPath: env[ENV.replayPath] } : {}),
  };
}

/** Every settings value as environment variables, for the Playwright child process. */
export function settingsToEnv(s: RunSettings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(ENV) as Array<[keyof RunSettings, string]>) {
    const v = s[key];
    if (v === undefined) continue;
    out[name] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  return out;
}
