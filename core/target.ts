import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseDocument } from 'yaml';
import { compileOwnSchema } from '../spec/schemas.ts';
import targetSchema from './target.schema.json' with { type: 'json' };

/** A target file as written: one deployment, described once and reused in CI. */
export interface Target {
  baseUrl: string;
  apiKey: string;
  restrictedApiKey?: string;
  containerFiles: { containerId: string; emptyContainerId?: string; restartedContainerId?: string };
  modelEndpoints: { model: string; missingModel?: string };
  interns: {
    workspaceId: string;
    otherWorkspaceId?: string;
    regionalBaseUrl?: string;
    params?: { limit: string; status: string; workspace: string };
  };
}

/** The target as checks see it: everything but the keys, which only the HTTP client holds. */
export type TargetView = Omit<Target, 'apiKey' | 'restrictedApiKey'> & { hasRestrictedKey: boolean };

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** A key written literally in the file is refused unless this is set (the file may be committed). */
  allowLiteralKeys?: boolean;
  /** http:// to a host other than loopback is refused unless this is set (the key would travel in clear). */
  allowInsecure?: boolean;
}

/** A problem with the target file: the CLI prints the message as one line and exits 2. */
export class TargetFileError extends Error {
  override readonly name = 'TargetFileError';
}

const validateTarget = compileOwnSchema<Target>(targetSchema);
const SECRET_FIELDS = ['apiKey', 'restrictedApiKey'] as const;
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function loadTarget(file: string, options: LoadOptions = {}): Target {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new TargetFileError(`target file ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseTarget(text, file, options);
}

export function parseTarget(text: string, file: string, options: LoadOptions = {}): Target {
  const doc = parseDocument(text, { prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0]?.line;
    throw new TargetFileError(`target file ${file}: not valid YAML${line ? ` (line ${line})` : ''}: ${yamlError.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new TargetFileError(`target file ${file}: must be a YAML mapping`);

  if (!options.allowLiteralKeys) {
    for (const field of SECRET_FIELDS) {
      const value = (raw as Record<string, unknown>)[field];
      if (typeof value === 'string' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value.trim())) {
        throw new TargetFileError(
          `target file ${file}: ${field} is written literally; write \${ENV_VAR} and set the variable, or pass --allow-literal-keys`,
        );
      }
    }
  }
  const resolved = substitute(raw, options.env ?? process.env, file, '');
  if (!validateTarget(resolved)) throw new TargetFileError(`target file ${file}: ${describeError(validateTarget.errors ?? [])}`);
  const target = resolved;
  checkTransportSafety(target.baseUrl, 'baseUrl', file, options);
  if (target.interns.regionalBaseUrl) checkTransportSafety(target.interns.regionalBaseUrl, 'interns.regionalBaseUrl', file, options);
  target.baseUrl = target.baseUrl.replace(/\/+$/, '');
  return target;
}

/**
 * One line naming the field. A misspelt field shows as both "unknown field" and "missing field":
 * the unknown one is named first, since it is what the user wrote, with the known name it resembles.
 */
function describeError(errors: ReadonlyArray<{ keyword: string; instancePath: string; params: unknown; message?: string }>): string {
  const at = (e: { instancePath: string }) => e.instancePath.slice(1).replaceAll('/', '.');
  const join = (...parts: string[]) => parts.filter(Boolean).join('.');
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const name = (unknown.params as { additionalProperty: string }).additionalProperty;
    const missing = errors.find((e) => e.keyword === 'required' && e.instancePath === unknown.instancePath);
    const hint = missing ? (missing.params as { missingProperty: string }).missingProperty : undefined;
    return `unknown field ${join(at(unknown), name)}${hint && closeEnough(name, hint) ? ` (did you mean ${join(at(unknown), hint)}?)` : ''}`;
  }
  const missing = errors.find((e) => e.keyword === 'required');
  if (missing) return `missing field ${join(at(missing), (missing.params as { missingProperty: string }).missingProperty)}`;
  const first = errors[0];
  return `${(first && at(first)) || '(root)'} ${first?.message ?? 'is invalid'}`;
}

/** Levenshtein distance of at most 2, or one name containing the other. */
function closeEnough(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x.includes(y) || y.includes(x)) return true;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length]! <= 2;
}

function substitute(value: unknown, env: NodeJS.ProcessEnv, file: string, at: string): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR, (_, name: string) => {
      const v = env[name];
      if (v === undefined || v === '') throw new TargetFileError(`target file ${file}: ${at.slice(1)}: environment variable ${name} is not set`);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, env, file, `${at}.${i}`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env, file, `${at}.${k}`)]));
  }
  return value;
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

function checkTransportSafety(url: string, field: string, file: string, options: LoadOptions): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetFileError(`target file ${file}: ${field} is not a URL`);
  }
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname) && !options.allowInsecure) {
    throw new TargetFileError(
      `target file ${file}: ${field} uses plain http:// to ${parsed.hostname}; the bearer key would travel in clear text (pass --allow-insecure to accept)`,
    );
  }
  if (parsed.username || parsed.password) throw new TargetFileError(`target file ${file}: ${field} must not carry credentials`);
}

export function viewOf(target: Target): TargetView {
  const { apiKey: _a, restrictedApiKey, ...rest } = target;
  return { ...rest, hasRestrictedKey: restrictedApiKey !== undefined };
}

/** The secret values of a target, for redaction, each with the placeholder printed instead. */
export function secretsOf(target: Target): Array<{ value: string; placeholder: string }> {
  const out = [{ value: target.apiKey, placeholder: '$API_KEY' }];
  if (target.restrictedApiKey) out.push({ value: target.restrictedApiKey, placeholder: '$RESTRICTED_API_KEY' });
  return out;
}
