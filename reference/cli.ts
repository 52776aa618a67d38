/**
 * Command line of `npm run reference`: which reference to start (a fault, a conformant variant, fixed
 * ports) and what it prints. Parsing only; reference/main.ts starts the servers. A bad option is one
 * line naming it (a ReferenceUsageError; exit 2), never a started server.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nearestName, unexpectedArgument, unknownOptionLine } from '../os/option-typos.ts';
import { FAULTS } from './faults/index.ts';
import type { ReferenceOptions, ReferenceServer } from './options.ts';
import { REFERENCE_KEY_ENV, referenceKeyEnv, referenceTargetYaml } from './target-file.ts';
import { CONFORMANT_VARIANTS } from './variants.ts';

export class ReferenceUsageError extends Error {
  override readonly name = 'ReferenceUsageError';
}

/**
 * True when the reference runs from a package installed in a project (under node_modules): the lines
 * it prints then use `npx conformance`, which works there, instead of a clone's npm scripts.
 */
const INSTALLED = fileURLToPath(import.meta.url)
  .split(/[\\/]/)
  .includes('node_modules');

export const REFERENCE_USAGE = `usage: ${INSTALLED ? 'npx conformance reference' : 'npm run reference --'} [options]

Starts the reference implementation of the service on 127.0.0.1 (a main host and a regional host,
section 4.3) and prints the shell lines that set its keys and write a target file describing it.
Ctrl-C stops it. Exit code 2: a bad option, or a port that cannot be listened on.

  --port N            port of the main host, 0 to 65535 (default 0: any free port)
  --regional-port N   port of the regional host, where list interns is refused (default 0: any free port)
  --fault NAME        switch on a fault: the reference then breaks the requirements it names
                      (repeatable; --list shows them)
  --variant NAME      start a conformant variant: other legal choices where the document is silent
  --list              list the faults and conformant variants, one line each, and start nothing
  --help              this text`;

export interface ReferenceCli {
  help: boolean;
  list: boolean;
  port: number;
  regionalPort: number;
  faults: string[];
  variant?: string;
}

/** Control characters shown escaped (`\x1b`): what the user typed must not move the terminal's cursor. */
function safe(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** What the user typed, quoted, escaped and cut, so a message stays one line. */
function shown(v: string): string {
  return `"${safe(v.length > 60 ? `${v.slice(0, 60)}…` : v)}"`;
}

function port(name: string, v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d{1,5}$/.test(v) || Number(v) > 65535)
    throw new ReferenceUsageError(`--${name} takes a port from 0 to 65535, got ${shown(v)}`);
  return Number(v);
}

const OPTIONS = {
  port: { type: 'string' },
  'regional-port': { type: 'string' },
  fault: { type: 'string', multiple: true },
  // multiple, so a second --variant is refused rather than silently replacing the first.
  variant: { type: 'string', multiple: true },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The command's options, among which a mistyped one finds what it meant. */
const OPTION_NAMES = Object.keys(OPTIONS);

/**
 * A word given without its option, in one line with what it most likely meant: a fault's or a
 * variant's name without `--fault` or `--variant`. Undefined for any other error of the parser.
 */
function strayWordLine(e: unknown): string | undefined {
  const stray = unexpectedArgument(e, safe);
  if (!stray) return undefined;
  const fault = nearestName(
    stray.typed,
    FAULTS.map((f) => f.name),
    0,
  );
  if (fault) return `unexpected argument ${stray.shown} (did you mean --fault ${fault}?)`;
  const variant = nearestName(
    stray.typed,
    CONFORMANT_VARIANTS.map((v) => v.name),
    0,
  );
  if (variant) return `unexpected argument ${stray.shown} (did you mean --variant ${variant}?)`;
  return `unexpected argument ${stray.shown}: the command takes options only`;
}

export function parseReferenceCli(argv: readonly string[]): ReferenceCli {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    }));
  } catch (e) {
    throw new ReferenceUsageError(
      unknownOptionLine(e, OPTION_NAMES, safe) ??
        strayWordLine(e) ??
        safe(
          (e as Error).message
            .split('\n')[0]!
            .replace(/\. To specify.*$/, '')
            .slice(0, 200),
        ),
    );
  }
  const faults = values.fault ?? [];
  for (const f of faults)
    if (!FAULTS.some((d) => d.name === f))
      throw new ReferenceUsageError(`--fault takes a fault name listed by --list, got ${shown(f)}`);
  const variants = values.variant ?? [];
  if (variants.length > 1) throw new ReferenceUsageError('--variant takes one variant, given more than once');
  const variant = variants[0];
  if (variant !== undefined && !CONFORMANT_VARIANTS.some((v) => v.name === variant))
    throw new ReferenceUsageError(`--variant takes a variant name listed by --list, got ${shown(variant)}`);
  const out: ReferenceCli = {
    help: values.help ?? false,
    list: values.list ?? false,
    port: port('port', values.port),
    regionalPort: port('regional-port', values['regional-port']),
    faults: [...new Set(faults)],
  };
  if (out.port !== 0 && out.port === out.regionalPort)
    throw new ReferenceUsageError(`--regional-port must differ from --port, both ${out.port}`);
  if (variant !== undefined) out.variant = variant;
  return out;
}

/** The reference options the command line asks for: the variant's choices, then the faults. */
export function referenceOptions(
  cli: ReferenceCli,
): Partial<ReferenceOptions> & { port: number; regionalPort: number } {
  const variant = CONFORMANT_VARIANTS.find((v) => v.name === cli.variant);
  return { ...variant?.options, faults: cli.faults, port: cli.port, regionalPort: cli.regionalPort };
}

/** `--list`: one line per fault (what it breaks) and per conformant variant (what it chooses). */
export function referenceList(): string {
  const width = Math.max(...FAULTS.map((f) => f.name.length), ...CONFORMANT_VARIANTS.map((v) => v.name.length));
  const one = (s: string) => s.replace(/\s+/g, ' ').trim();
  return [
    ...FAULTS.map((f) => `fault    ${f.name.padEnd(width)}  breaks ${f.breaks.join(', ')}: ${one(f.description)}`),
    ...CONFORMANT_VARIANTS.map((v) => `variant  ${v.name.padEnd(width)}  conformant: ${one(v.description)}`),
  ].join('\n');
}

/** Delimiter of the here-document that writes the target file (no line of the YAML is this word). */
export const TARGET_HEREDOC = 'TARGET_FILE';

/**
 * What a started reference prints: shell lines to paste into another terminal, which set the keys and
 * write the target file, then the command that runs the suite against it.
 */
export function startedText(server: ReferenceServer, cli: ReferenceCli): string {
  const env = referenceKeyEnv(server);
  const what =
    [cli.variant ? `variant ${cli.variant}` : '', ...cli.faults.map((f) => `fault ${f}`)].filter(Boolean).join(', ') ||
    'no fault';
  return [
    `# reference (${what}) on ${server.baseUrl}, regional host ${server.regionalBaseUrl}; Ctrl-C stops it.`,
    '# Paste these lines into another shell: they set the keys and write the target file.',
    `export ${REFERENCE_KEY_ENV.apiKey}=${env[REFERENCE_KEY_ENV.apiKey]}`,
    `export ${REFERENCE_KEY_ENV.restrictedApiKey}=${env[REFERENCE_KEY_ENV.restrictedApiKey]}`,
    `cat > reference.target.yaml <<'${TARGET_HEREDOC}'`,
    referenceTargetYaml(server).trimEnd(),
    TARGET_HEREDOC,
    `${INSTALLED ? 'npx conformance' : 'npm run conformance --'} --target reference.target.yaml`,
    '',
  ].join('\n');
}
