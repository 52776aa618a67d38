/** CLI: `npx tsx reference/main.ts [--port N]` starts the reference and prints where it listens. */
import { startReference } from './server.ts';

function parsePort(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0) return 0;
  const a = argv[i]!;
  const raw = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
  const n = Number(raw);
  if (!raw || !/^[0-9]+$/.test(raw) || n > 65535) {
    console.error(`reference: invalid --port ${JSON.stringify(raw ?? '')}`);
    process.exit(2);
  }
  return n;
}

const ref = await startReference({ port: parsePort(process.argv.slice(2)) });
const s = (v: string) => JSON.stringify(v); // a JSON string is a valid YAML scalar
const lines = [
  `base_url: ${s(ref.baseUrl)}`,
  `regional_base_url: ${s(ref.regionalBaseUrl)}`,
  'keys:',
  ...Object.entries(ref.keys).map(([k, v]) => `  ${k}: ${s(v)}`),
  'fixtures:',
  ...Object.entries(ref.fixtures).map(([k, v]) => `  ${k}: ${s(v)}`),
];
process.stdout.write(lines.join('\n') + '\n');

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`reference: ${signal}, stopping\n`);
  ref.close().then(() => process.exit(0), () => process.exit(1));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
