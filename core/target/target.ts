import { tmpdir } from 'node:os';
import { linkLeadingOutside } from '../../os/links.ts';
import { FileReadError, readRegularFile } from '../../os/regular-file.ts';
import { terminalSafe } from '../text/terminal-text.ts';
import { yamlParser } from '../../spec/data-file.ts';
import { compileOwnSchema } from '../../spec/schemas.ts';
import targetSchema from './target.schema.json' with { type: 'json' };
import { isLoopback, refusedKeyHosts } from './allowed-hosts.ts';
import { showableFieldName, unshownFieldText } from './unknown-field.ts';
import { valueProblem } from './field-values.ts';

export { isLoopback } from './allowed-hosts.ts';

/** An extra request header of the run (--header), its value resolved: a secret like the keys. */
export interface ExtraHeader {
  name: string;
  value: string;
  /** The environment variable printed commands name its value by (core/text/mask.ts). */
  variable: string;
}

/** A target file as written: one deployment, described once and reused in CI. */
export interface Target {
  baseUrl: string;
  apiKey: string;
  /** The environment variable apiKey was read from (`${VAR}`), to name it when the key is rejected. */
  apiKeyVariable?: string;
  restrictedApiKey?: string;
  /** The environment variable restrictedApiKey was read from: printed commands name the key by it (core/text/mask.ts). */
  restrictedApiKeyVariable?: string;
  /** Headers sent with every request besides the suite's own (--header: a gateway's); not part of the file. */
  headers?: readonly ExtraHeader[];
  containerFiles: { containerId: string; emptyContainerId?: string; restartedContainerId?: string };
  modelEndpoints: { model: string; missingModel?: string; forbiddenModel?: string };
  interns: {
    workspaceId: string;
    otherWorkspaceId?: string;
    regionalBaseUrl?: string;
    params?: { limit: string; status: string; workspace: string };
    /** The query parameter that takes the id of a page's last intern (4.3: how to fetch the next page is not shown). */
    cursorParam?: string;
  };
}

/** The target as checks see it: everything but the keys, which only the HTTP client holds. */
export type TargetView = Omit<
  Target,
  'apiKey' | 'restrictedApiKey' | 'apiKeyVariable' | 'restrictedApiKeyVariable' | 'headers'
> & {
  hasRestrictedKey: boolean;
};

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** A key written literally in the file is refused unless this is set (the file may be committed). */
  allowLiteralKeys?: boolean;
  /** http:// to a host other than loopback is refused unless this is set (the key would travel in clear). */
  allowInsecure?: boolean;
  /**
   * Hosts (HOST or HOST:PORT, core/target/allowed-hosts.ts) the user allowed outside the file
   * (--allow-host, CONFORMANCE_ALLOW_HOSTS): a base URL naming another host than these or loopback
   * is refused, since it would receive the keys.
   */
  allowHosts?: readonly string[];
  /**
   * A target file reached through a symbolic link that leads outside the working directory is read
   * (--target-outside); otherwise it is refused: a link committed to the repository would choose
   * which file of the machine is read, and a file not meant as a target file has no business in a run.
   */
  targetOutside?: boolean;
}

/** A problem with the target file: the CLI prints the message as one line and exits 2. */
export class TargetFileError extends Error {
  override readonly name = 'TargetFileError';
}

const validateTarget = compileOwnSchema<Target>(targetSchema);
const SECRET_FIELDS = ['apiKey', 'restrictedApiKey'] as const;
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_VAR = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** A target file is a few hundred bytes: a larger one is not a target file (and is never read whole). */
export const MAX_TARGET_FILE_BYTES = 1024 * 1024;
/** Alias expansions allowed while reading the YAML (yaml's maxAliasCount): an alias bomb is refused. */
export const MAX_YAML_ALIASES = 50;
/** Collections nested deeper than this are refused before they reach the parser's recursion (the file is 3 deep). */
export const MAX_YAML_DEPTH = 16;

export function loadTarget(file: string, options: LoadOptions = {}): Target {
  const outside = options.targetOutside ? undefined : linkLeadingOutside(file, process.cwd(), [tmpdir()]);
  if (outside)
    throw new TargetFileError(
      `target file ${terminalSafe(file)}: ${terminalSafe(outside.link)} is a symbolic link leading outside the directory the run was started from (to ${terminalSafe(outside.to)}); pass --target-outside to read it`,
    );
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_TARGET_FILE_BYTES);
  } catch (e) {
    if (e instanceof FileReadError) throw new TargetFileError(`target file ${terminalSafe(file)}: ${e.message}`);
    throw e;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TargetFileError(`target file ${terminalSafe(file)}: not UTF-8 text`);
  }
  return parseTarget(text, file, options);
}

export function parseTarget(text: string, fileName: string, options: LoadOptions = {}): Target {
  const { raw, lineOf } = readYaml(text, terminalSafe(fileName));
  return targetOfMapping(raw, fileName, options, lineOf);
}

/**
 * A target file's mapping, as its YAML reads (`raw`), checked and resolved as parseTarget does: the
 * embedded reference describes itself so (reference/target-file.ts), without the YAML parser.
 */
export function targetOfMapping(
  raw: unknown,
  fileName: string,
  options: LoadOptions = {},
  lineOf: LineOf = () => undefined,
): Target {
  const file = terminalSafe(fileName);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new TargetFileError(`target file ${file}: must be a YAML mapping`);

  for (const field of SECRET_FIELDS) {
    const value = (raw as Record<string, unknown>)[field];
    if (typeof value !== 'string' || WHOLE_VAR.test(value.trim())) continue;
    // A key is one variable or one literal, never a mix: every value read from the environment is
    // then a whole key, and the mask (core/text/mask.ts secretsOf) hides it wherever it appears.
    if (value.includes('${'))
      throw new TargetFileError(`target file ${file}: ${field} mixes \${VAR} with other text; write \${ENV_VAR} alone`);
    if (!options.allowLiteralKeys) {
      throw new TargetFileError(
        `target file ${file}: ${field} is written literally; write \${ENV_VAR} and set the variable, or pass --allow-literal-keys`,
      );
    }
  }
  refuseEnvironmentOutsideKeys(raw, file, '');
  // Only the key fields are expanded: nothing else of the file reads the environment.
  const rawFields = raw as Record<string, unknown>;
  const resolved = Object.fromEntries(
    Object.entries(rawFields).map(([k, v]) => [
      k,
      (SECRET_FIELDS as readonly string[]).includes(k) ? substitute(v, options.env ?? process.env, file, `.${k}`) : v,
    ]),
  );
  if (!validateTarget(resolved))
    throw new TargetFileError(
      `target file ${file}: ${terminalSafe(describeError(validateTarget.errors ?? [], lineOf))}`,
    );
  const target = resolved;
  for (const field of SECRET_FIELDS) checkKey(field, target[field], (raw as Record<string, unknown>)[field], file);
  checkBaseUrl(target.baseUrl, 'baseUrl', file, options);
  if (target.interns.regionalBaseUrl)
    checkBaseUrl(target.interns.regionalBaseUrl, 'interns.regionalBaseUrl', file, options);
  const badValue = valueProblem(target);
  if (badValue) throw new TargetFileError(`target file ${file}: ${badValue}`);
  checkPlaceholders(target, file);
  checkPathParameters(target, file);
  const keyHosts = refusedKeyHosts(baseUrlsOf(target), options.allowHosts ?? []);
  if (keyHosts) throw new TargetFileError(`target file ${file}: ${keyHosts}`);
  target.baseUrl = target.baseUrl.replace(/\/+$/, '');
  const variableOf = (field: string) =>
    WHOLE_VAR.exec(String((raw as Record<string, unknown>)[field] ?? '').trim())?.[1];
  const variable = variableOf('apiKey');
  if (variable) target.apiKeyVariable = variable;
  const restrictedVariable = variableOf('restrictedApiKey');
  if (restrictedVariable && target.restrictedApiKey) target.restrictedApiKeyVariable = restrictedVariable;
  return target;
}

/**
 * The README's template writes its placeholders with "..." (`cntr_...`, `00000000-...`): a field left
 * so names nothing of the deployment, and an optional one would have its checks judged against
 * nothing (an otherWorkspaceId that is no workspace passed the workspace-mismatch checks). Every such
 * field is named, in one line (rule "Bad input exits 2").
 */
function checkPlaceholders(target: Target, file: string): void {
  const fields: Array<[string, string | undefined]> = [
    ['containerFiles.containerId', target.containerFiles.containerId],
    ['containerFiles.emptyContainerId', target.containerFiles.emptyContainerId],
    ['containerFiles.restartedContainerId', target.containerFiles.restartedContainerId],
    ['modelEndpoints.model', target.modelEndpoints.model],
    ['modelEndpoints.missingModel', target.modelEndpoints.missingModel],
    ['modelEndpoints.forbiddenModel', target.modelEndpoints.forbiddenModel],
    ['interns.workspaceId', target.interns.workspaceId],
    ['interns.otherWorkspaceId', target.interns.otherWorkspaceId],
  ];
  const left = fields.filter(([, v]) => v !== undefined && (v.includes('...') || v.includes('\u2026')));
  if (left.length === 0) return;
  const named = left.map(([f, v]) => `${f} ${JSON.stringify(terminalSafe(v!))}`).join(', ');
  throw new TargetFileError(
    `target file ${file}: ${named} still ${left.length === 1 ? 'holds' : 'hold'} the template's "..." placeholder: write the deployment's own value, or leave an optional field out`,
  );
}

/**
 * Fields that become path parameters (4.1 container_id; 4.2 author and slug) must be able to name
 * one: a container id that is empty, `.` or `..`, or holds `/`, and a model that is not
 * `<author>/<slug>` with two such segments, can name nothing; the file is careless, and said so here
 * rather than blamed on the server (rule "Bad input exits 2").
 */
function checkPathParameters(target: Target, file: string): void {
  const segment = (field: string, value: string | undefined, what: string) => {
    if (value === undefined) return;
    if (value === '' || value === '.' || value === '..' || value.includes('/')) {
      throw new TargetFileError(
        `target file ${file}: ${field} ${JSON.stringify(terminalSafe(value))} cannot be ${what} (empty, "." or "..", or holding "/")`,
      );
    }
  };
  segment('containerFiles.containerId', target.containerFiles.containerId, 'a container id (a path segment, 4.1)');
  segment(
    'containerFiles.emptyContainerId',
    target.containerFiles.emptyContainerId,
    'a container id (a path segment, 4.1)',
  );
  segment(
    'containerFiles.restartedContainerId',
    target.containerFiles.restartedContainerId,
    'a container id (a path segment, 4.1)',
  );
  for (const field of ['model', 'missingModel', 'forbiddenModel'] as const) {
    const model = target.modelEndpoints[field];
    if (model === undefined) continue;
    const parts = model.split('/');
    if (parts.length !== 2)
      throw new TargetFileError(
        `target file ${file}: modelEndpoints.${field} ${JSON.stringify(terminalSafe(model))} is not <author>/<slug> (4.2: two path segments)`,
      );
    for (const p of parts) segment(`modelEndpoints.${field}`, p, 'an author or a slug (a path segment, 4.2)');
  }
}

/**
 * The YAML as plain data, within bounds: flow collections nested too deep are refused before the
 * parser's recursion meets them (a megabyte of `[` would take seconds to fail), aliases are expanded
 * at most MAX_YAML_ALIASES times, and the result is at most MAX_YAML_DEPTH deep (an alias can even
 * make it cyclic).
 */
/** The line (from 1) of a key of the YAML, by its path of keys; undefined where it cannot be told. */
type LineOf = (path: readonly string[]) => number | undefined;

function readYaml(text: string, file: string): { raw: unknown; lineOf: LineOf } {
  const { parseDocument, Lexer, CST } = yamlParser();
  const tooDeep = `target file ${file}: not valid YAML: collections nested more than ${MAX_YAML_DEPTH} levels deep`;
  if (flowDepthExceeds(text, MAX_YAML_DEPTH, new Lexer(), CST)) throw new TargetFileError(tooDeep);
  const lineCounter = new (yamlParser().LineCounter)();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  const yamlError = doc.errors[0];
  if (yamlError) {
    if (yamlError.message.includes('Maximum call stack size exceeded')) throw new TargetFileError(tooDeep);
    const line = yamlError.linePos?.[0]?.line;
    throw new TargetFileError(
      `target file ${file}: not valid YAML${line ? ` (line ${line})` : ''}: ${terminalSafe(yamlError.message.split('\n')[0] ?? '')}`,
    );
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    if (/alias count/i.test(message))
      throw new TargetFileError(
        `target file ${file}: not valid YAML: more than ${MAX_YAML_ALIASES} alias expansions (an alias bomb?)`,
      );
    throw new TargetFileError(`target file ${file}: not valid YAML: ${terminalSafe(message.split('\n')[0] ?? '')}`);
  }
  if (depthExceeds(raw, MAX_YAML_DEPTH)) throw new TargetFileError(tooDeep);
  const lineOf: LineOf = (path) => {
    const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
    const items = (parent as { items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> })?.items;
    const key = items?.find((pair) => pair.key?.value === path[path.length - 1])?.key;
    return key?.range ? lineCounter.linePos(key.range[0]).line : undefined;
  };
  return { raw, lineOf };
}

/** Nesting of flow collections (`[`, `{`) as YAML's own lexer sees them (quotes, comments, block scalars). */
function flowDepthExceeds(
  text: string,
  max: number,
  lexer: import('yaml').Lexer,
  CST: typeof import('yaml').CST,
): boolean {
  let depth = 0;
  for (const token of lexer.lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (++depth > max) return true;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') depth = Math.max(0, depth - 1);
  }
  return false;
}

function depthExceeds(value: unknown, max: number, seen = new Set<object>()): boolean {
  if (!value || typeof value !== 'object') return false;
  if (max === 0 || seen.has(value)) return true;
  seen.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  const deeper = children.some((child) => depthExceeds(child, max - 1, seen));
  seen.delete(value);
  return deeper;
}

/**
 * One line naming the field. A misspelt field shows as both "unknown field" and "missing field":
 * the unknown one is named first, since it is what the user wrote, with the known name it resembles.
 */
function describeError(
  errors: ReadonlyArray<{ keyword: string; instancePath: string; params: unknown; message?: string }>,
  lineOf: LineOf,
): string {
  const at = (e: { instancePath: string }) => e.instancePath.slice(1).replaceAll('/', '.');
  const join = (...parts: string[]) => parts.filter(Boolean).join('.');
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const name = (unknown.params as { additionalProperty: string }).additionalProperty;
    if (!showableFieldName(name)) {
      const path = [...at(unknown).split('.').filter(Boolean), name];
      return unshownFieldText(at(unknown), name, lineOf(path));
    }
    const missing = errors.find((e) => e.keyword === 'required' && e.instancePath === unknown.instancePath);
    const required = missing ? (missing.params as { missingProperty: string }).missingProperty : undefined;
    // A required field the slip left missing first, else any field of that object (optional ones too,
    // in any letter case: restrictedApikey, regionalBaseURL).
    const nearest = fieldsAt(unknown.instancePath)
      .filter((f) => closeEnough(name, f))
      .sort((a, b) => distance(name, a) - distance(name, b))[0];
    const hint =
      required && closeEnough(name, required) && (!nearest || distance(name, required) <= distance(name, nearest))
        ? required
        : nearest;
    return `unknown field ${join(at(unknown), name)}${hint ? ` (did you mean ${join(at(unknown), hint)}?)` : ''}`;
  }
  const missing = errors.find((e) => e.keyword === 'required');
  if (missing)
    return `missing field ${join(at(missing), (missing.params as { missingProperty: string }).missingProperty)}`;
  const first = errors[0];
  const shape = first?.keyword === 'pattern' ? SHAPES[(first.params as { pattern: string }).pattern] : undefined;
  return `${(first && at(first)) || '(root)'} ${shape ?? first?.message ?? 'is invalid'}`;
}

/** A pattern of target.schema.json in the document's words, for the user who wrote a value of another shape. */
const SHAPES: Record<string, string> = {
  '^https?://': 'must be an http:// or https:// URL, {base_url} including /v1 (section 9)',
  '-r[^/]+$': "must be a restarted session's container id, ending in -r<nonce> (4.1)",
  '^[^/]+/[^/]+$': 'must be shaped <author>/<slug> (4.2)',
};

/** The field names the target file schema knows for the object at `instancePath` ('' is the root). */
function fieldsAt(instancePath: string): string[] {
  let node = targetSchema as { properties?: Record<string, unknown> };
  for (const part of instancePath.split('/').filter(Boolean)) node = (node.properties?.[part] ?? {}) as typeof node;
  return Object.keys(node.properties ?? {});
}

/** Levenshtein distance of at most 2, or one name containing the other (letter case ignored). */
function closeEnough(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.includes(y) || y.includes(x) || distance(a, b) <= 2;
}

/** Levenshtein distance, letter case ignored (names are short: at most a few dozen characters). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase().slice(0, 200);
  const y = b.toLowerCase().slice(0, 200);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length]!;
}

/**
 * The target file is untrusted input (in CI it comes from the repository, which more people can
 * change than can read the job's secrets): only the key fields read the environment. A `${VAR}`
 * anywhere else would send the variable's value to the target in every request and print it
 * unmasked in every report, so it is refused, naming the field and never the value. A base URL is
 * no exception: it appears in every request line of the report, and a masked URL in response bodies
 * would change what the checks judge; a file that needs one from the environment is written by the
 * job (e.g. `envsubst`), where the user says so.
 */
function refuseEnvironmentOutsideKeys(value: unknown, file: string, at: string): void {
  if (typeof value === 'string') {
    const field = at.slice(1);
    if ((SECRET_FIELDS as readonly string[]).includes(field)) return;
    const name = new RegExp(VAR.source).exec(value)?.[1];
    if (name !== undefined) {
      throw new TargetFileError(
        `target file ${file}: ${terminalSafe(field.slice(0, 200))} names the environment variable ${name.slice(0, 200)}; only apiKey and restrictedApiKey read the environment (write the value itself)`,
      );
    }
    return;
  }
  // A field the schema does not know is refused as such next (a misspelt `restrictedApiKy: ${VAR}`
  // reads better as "unknown field, did you mean"); it is never expanded.
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const known = fieldsAt(
      at
        .split('.')
        .filter(Boolean)
        .map((p) => `/${p}`)
        .join(''),
    );
    for (const [k, v] of Object.entries(value))
      if (known.includes(k)) refuseEnvironmentOutsideKeys(v, file, `${at}.${k}`);
  }
}

function substitute(value: unknown, env: NodeJS.ProcessEnv, file: string, at: string): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR, (_, name: string) => {
      const v = env[name];
      // A CI secret that is not defined reaches the job as an empty variable: said so, not "not set".
      if (v === undefined || v === '')
        throw new TargetFileError(
          `target file ${file}: ${at.slice(1)}: environment variable ${name} ${v === '' ? 'is set but empty' : 'is not set'}`,
        );
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, env, file, `${at}.${i}`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env, file, `${at}.${k}`)]));
  }
  return value;
}

/** Every base URL of a target file, with its field: each receives the keys (core/target/allowed-hosts.ts). */
export function baseUrlsOf(target: Pick<Target, 'baseUrl' | 'interns'>): Array<{ field: string; url: string }> {
  return [
    { field: 'baseUrl', url: target.baseUrl },
    ...(target.interns.regionalBaseUrl
      ? [{ field: 'interns.regionalBaseUrl', url: target.interns.regionalBaseUrl }]
      : []),
  ];
}

/**
 * A base URL is a scheme, a host and a path: a query or a fragment would be dropped or mangled when
 * the documented paths are appended (every request would miss), and credentials in it would be sent
 * to the host and printed with the URL. http:// to a host other than loopback would carry the key in
 * clear. The URL itself is never printed here: it may hold credentials.
 */
function checkBaseUrl(url: string, field: string, file: string, options: LoadOptions): void {
  // new URL() silently drops tabs and newlines; a URL with them is not what the user meant.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url))
    throw new TargetFileError(`target file ${file}: ${field} holds white space or a control character`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetFileError(`target file ${file}: ${field} is not a URL`);
  }
  if (/^[^:]*:\/\/[^/?#]*@/.test(url) || parsed.username || parsed.password)
    throw new TargetFileError(
      `target file ${file}: ${field} must not carry credentials (user:password@); the key goes in apiKey`,
    );
  if (url.includes('?'))
    throw new TargetFileError(
      `target file ${file}: ${field} must not have a query (?...); give the base URL only, e.g. https://api.example.com/v1`,
    );
  if (url.includes('#'))
    throw new TargetFileError(
      `target file ${file}: ${field} must not have a fragment (#...); give the base URL only, e.g. https://api.example.com/v1`,
    );
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname) && !options.allowInsecure) {
    throw new TargetFileError(
      `target file ${file}: ${field} uses plain http:// to ${parsed.hostname}; the bearer key would travel in clear text (pass --allow-insecure to accept)`,
    );
  }
}

/** The longest key the suite takes (checkKey). */
export const MAX_KEY_CHARS = 16_384;

/** RFC 6750 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * A key is checked when the file is loaded: one that cannot be a bearer token (a newline from a
 * secrets file, a Latin-1 character) would otherwise be sent as raw bytes or refused by the HTTP
 * stack, and the target blamed. The message names where the key came from, never the key.
 */
function checkKey(
  field: (typeof SECRET_FIELDS)[number],
  value: string | undefined,
  written: unknown,
  file: string,
): void {
  if (value === undefined || (B64TOKEN.test(value) && value.length <= MAX_KEY_CHARS)) return;
  const vars = typeof written === 'string' ? [...written.matchAll(VAR)].map((m) => `$${m[1]}`) : [];
  const source =
    vars.length === 0
      ? 'written in the file'
      : typeof written === 'string' && written.trim() === `\${${vars[0]!.slice(1)}}`
        ? `from ${vars[0]}`
        : `from the file and ${vars.join(', ')}`;
  // The mask searches every encoding of every key (core/text/mask.ts): its tables grow with the key, so a
  // run's memory is bounded only if the key is. A bearer token, a JWT with many claims included, fits.
  if (value.length > MAX_KEY_CHARS)
    throw new TargetFileError(
      `target file ${file}: ${field} (${source}) is ${value.length} characters long, over the ${MAX_KEY_CHARS} the suite takes (a file's whole content instead of the key?)`,
    );
  throw new TargetFileError(
    `target file ${file}: ${field} (${source}) is not a valid bearer token: ${keyProblem(value)}; RFC 6750 2.1 allows letters, digits, - . _ ~ + / and = at the end`,
  );
}

/** What is wrong with a key, without showing any of it. */
function keyProblem(key: string): string {
  if (/^\s|\s$/.test(key)) return 'it starts or ends with white space (a trailing newline?)';
  if (/[\r\n]/.test(key)) return 'it holds a line break';
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'it holds a control character';
  if (/[^\u0000-\u007f]/.test(key)) return 'it holds a character outside ASCII';
  if (/\s/.test(key)) return 'it holds white space';
  if (/=[^=]/.test(key)) return '= appears before its end';
  return 'it holds a character outside that set';
}

export function viewOf(target: Target): TargetView {
  const {
    apiKey: _a,
    apiKeyVariable: _v,
    restrictedApiKeyVariable: _rv,
    restrictedApiKey,
    headers: _h,
    ...rest
  } = target;
  return { ...rest, hasRestrictedKey: restrictedApiKey !== undefined };
}
