import type { ExtraHeader } from '../core/target/target.ts';
import { UsageError } from './option-values.ts';

/**
 * --header NAME:VALUE: an extra request header for a deployment behind a gateway, sent with every
 * request of the run. Its value is a secret like the target file's keys ("Hostile input": masked in
 * every output): written `${VAR}` it is read from the environment, as the target file's keys are
 * (core/target/target.ts), and a printed replay names the variable, never the value.
 */

/** RFC 9110 5.1: a field name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const WHOLE_VAR = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** Headers at most: a gateway needs one or two. */
export const MAX_HEADERS = 20;
const MAX_VALUE = 4_096;

/**
 * Names an extra header may not take, lower case. The credentials are the target file's keys (5: the
 * suite judges the key it sends); Accept and Accept-Encoding are the suite's own (4.1: the media type
 * it judges; a compressed body would not be read as sent); the rest frame the message or hold for one
 * connection only (RFC 9110 7.2, 7.6.1, 8.6; RFC 9112 6.1), which the HTTP client sets itself.
 */
const REFUSED: Readonly<Record<string, string>> = {
  authorization: "the target file's keys authenticate every request (5)",
  'proxy-authorization': "the target file's keys authenticate every request (5)",
  accept: 'the suite asks for application/json itself (4.1)',
  'accept-encoding': 'the suite reads bodies as sent, uncompressed',
  host: 'the base URL of the target file names the host',
  'content-length': 'it frames the message; the HTTP client sets it',
  'transfer-encoding': 'it frames the message; the HTTP client sets it',
  connection: 'it is hop-by-hop; the HTTP client sets it',
  'keep-alive': 'it is hop-by-hop; the HTTP client sets it',
  'proxy-connection': 'it is hop-by-hop; the HTTP client sets it',
  te: 'it is hop-by-hop; the HTTP client sets it',
  trailer: 'it frames the message; the HTTP client sets it',
  upgrade: 'it is hop-by-hop; the HTTP client sets it',
  expect: 'a GET has no body to expect a continue for',
};

/** One --header as typed, checked; returned as typed (the run resolves `${VAR}` when it reads the target). */
export function headerOption(v: string): string {
  const colon = v.indexOf(':');
  // The value may be a secret: no message quotes it, only the name.
  if (colon < 0) throw new UsageError('--header takes NAME:VALUE (a header name, a colon, its value), got no colon');
  const name = v.slice(0, colon);
  if (!TOKEN.test(name))
    throw new UsageError(
      "--header takes NAME:VALUE, got a NAME that is not a header name (letters, digits, -_.!#$%&'*+^`|~)",
    );
  const refused = REFUSED[name.toLowerCase()];
  if (refused) throw new UsageError(`--header ${name} is refused: ${refused}`);
  const value = v.slice(colon + 1).trim();
  if (value.length === 0 || value.length > MAX_VALUE || !/^[\x20-\x7e]+$/.test(value))
    throw new UsageError(
      `--header ${name} takes a value of 1 to ${MAX_VALUE} printable ASCII characters (no control character)`,
    );
  // As a target file's key: one variable or one literal, so the mask hides the whole value wherever it appears.
  if (value.includes('${') && !WHOLE_VAR.test(value))
    throw new UsageError(`--header ${name} mixes \${VAR} with other text; write \${ENV_VAR} alone`);
  return `${name}:${value}`;
}

/** The --header list: each name once, at most MAX_HEADERS. */
export function headerList(all: readonly string[]): void {
  if (all.length > MAX_HEADERS) throw new UsageError(`--header is given ${all.length} times; at most ${MAX_HEADERS}`);
  const seen = new Set<string>();
  for (const h of all) {
    const name = h.slice(0, h.indexOf(':'));
    if (seen.has(name.toLowerCase())) throw new UsageError(`--header ${name} is given twice; give each header once`);
    seen.add(name.toLowerCase());
  }
}

/** The variable a header's value is named by: its own `${VAR}`, else HEADER_<NAME> (a value written literally). */
export function headerVariable(header: string): string {
  const colon = header.indexOf(':');
  const own = WHOLE_VAR.exec(header.slice(colon + 1))?.[1];
  return (
    own ??
    `HEADER_${header
      .slice(0, colon)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '_')}`
  );
}

/** A --header as a printed replay carries it: `NAME:${VAR}`, never the value. */
export function headerReplay(header: string): string {
  return `${header.slice(0, header.indexOf(':'))}:\${${headerVariable(header)}}`;
}

/** The run's extra headers with their values: `${VAR}` read from `env` (one line, exit 2, when it is not set). */
export function resolveHeaders(headers: readonly string[], env: NodeJS.ProcessEnv): ExtraHeader[] {
  return headers.map((h) => {
    const colon = h.indexOf(':');
    const name = h.slice(0, colon);
    const written = h.slice(colon + 1);
    const variable = WHOLE_VAR.exec(written)?.[1];
    const value = variable === undefined ? written : env[variable];
    // A CI secret that is not defined reaches the job as an empty variable: said so, not "not set".
    if (value === undefined || value === '')
      throw new UsageError(
        `--header ${name}: environment variable ${variable} ${value === '' ? 'is set but empty' : 'is not set'}`,
      );
    if (value.length > MAX_VALUE || !/^[\x20-\x7e]+$/.test(value))
      throw new UsageError(
        `--header ${name}: environment variable ${variable} holds a control or non-ASCII character, or more than ${MAX_VALUE} characters`,
      );
    return { name, value, variable: headerVariable(h) };
  });
}
