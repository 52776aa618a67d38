import { parseArgs } from 'node:util';

/** Command-line options of `npm run conformance`; a wrong option is a one-line error, exit 2. */
export interface CliOptions {
  target?: string;
  reportDir?: string;
  seed?: number;
  numRuns?: number;
  maxRequests?: number;
  maxRps?: number;
  timeoutMs?: number;
  deadlineS?: number;
  grep?: string;
  shard?: string;
  failOn: 'must' | 'should';
  transport: 'node' | 'playwright';
  allowLiteralKeys: boolean;
  allowInsecure: boolean;
  dryRun: boolean;
  replayPath?: string;
  help: boolean;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `usage: npm run conformance -- [options]

Runs the conformance suite against the target described by --target, or against the embedded
reference implementation when no target is given. Exit code: 0 conformant, 1 a MUST requirement
failed (or a SHOULD one with --fail-on should), 2 the run could not be made.

  --target FILE          target file (YAML) describing the deployment
  --report-dir DIR       where the report is written (default reports/latest)
  --seed N               seed of the run (default: random, printed)
  --num-runs N           fast-check runs per property (default 20)
  --max-requests N       hard request budget of the run (default 2000)
  --max-rps N            at most N requests per second (default: no limit)
  --timeout MS           time-out of one request (default 10000)
  --deadline S           deadline of the whole run in seconds (default 600)
  --grep REGEX           run only the checks whose id or tag matches (e.g. @must, @files)
  --shard I/N            run shard I of N; join the shards with npm run conformance:merge
                         (README: Using it in CI)
  --fail-on must|should  which failed level fails the run (default must)
  --transport node|playwright   HTTP client (default node: bodies capped while streaming)
  --allow-literal-keys   accept keys written literally in the target file
  --allow-insecure       accept plain http:// to a host other than loopback
  --replay-path PATH     fast-check path of a counterexample to replay (with --seed and --grep)
  --dry-run              print the plan and send nothing
  --help                 this text`;

function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name} takes a whole number of at least ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

export function parseCli(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: 'string' },
        'report-dir': { type: 'string' },
        seed: { type: 'string' },
        'num-runs': { type: 'string' },
        'max-requests': { type: 'string' },
        'max-rps': { type: 'string' },
        timeout: { type: 'string' },
        deadline: { type: 'string' },
        grep: { type: 'string' },
        shard: { type: 'string' },
        'fail-on': { type: 'string' },
        transport: { type: 'string' },
        'allow-literal-keys': { type: 'boolean' },
        'allow-insecure': { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        'replay-path': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, ''));
  }
  const failOn = values['fail-on'] ?? 'must';
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on takes must or should, got ${JSON.stringify(failOn)}`);
  const transport = values.transport ?? 'node';
  if (transport !== 'node' && transport !== 'playwright') throw new UsageError(`--transport takes node or playwright, got ${JSON.stringify(transport)}`);
  if (values.grep !== undefined) {
    try {
      new RegExp(values.grep);
    } catch {
      throw new UsageError(`--grep takes a regular expression, got ${JSON.stringify(values.grep)}`);
    }
  }
  if (values.shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(values.shard)) throw new UsageError(`--shard takes I/N, got ${JSON.stringify(values.shard)}`);
  const opts: CliOptions = {
    failOn,
    transport,
    allowLiteralKeys: values['allow-literal-keys'] ?? false,
    allowInsecure: values['allow-insecure'] ?? false,
    dryRun: values['dry-run'] ?? false,
    help: values.help ?? false,
  };
  const seed = int('seed', values.seed, 0);
  if (seed !== undefined && seed > 0xffffffff) throw new UsageError('--seed takes a 32-bit whole number');
  const assign = <K extends keyof CliOptions>(k: K, v: CliOptions[K] | undefined) => {
    if (v !== undefined) opts[k] = v;
  };
  assign('target', values.target);
  assign('reportDir', values['report-dir']);
  assign('seed', seed);
  assign('numRuns', int('num-runs', values['num-runs'], 1));
  assign('maxRequests', int('max-requests', values['max-requests'], 1));
  assign('maxRps', int('max-rps', values['max-rps'], 1));
  assign('timeoutMs', int('timeout', values.timeout, 1));
  assign('deadlineS', int('deadline', values.deadline, 1));
  assign('grep', values.grep);
  assign('shard', values.shard);
  assign('replayPath', values['replay-path']);
  return opts;
}
