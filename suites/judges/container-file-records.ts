/**
 * The rules of one container file (2.1) that its schema cannot state: the id encodes the path, the
 * container id is echoed, created_at is in seconds, the path is relative. Applied to every file of
 * every 200 page of listContainerFiles the run receives (a bad record is rarely on the first
 * page), and by the files.file.* checks to the files they sample themselves.
 *
 * The field types and constants (object "container.file", source "assistant", bytes an integer >= 0,
 * path a string) are spec/openapi.yaml's ContainerFile, judged by the response-schema judge with the
 * same record position; ownedInFile names the schema rules these functions judge instead.
 */
import type { Finding, ResponseJudge } from '../../core/check/judge.ts';
import { decodeFileId, encodeFileId, FILE_ID_PREFIX } from '../../core/document/file-id.ts';
import type { SchemaViolation } from '../../spec/schemas.ts';
import { arrayAt, recordFindings, type RecordRule, type RecordViolation } from './records.ts';

/** 2.1: created_at is in seconds; above 10^11 (the year 5138 in seconds) it can only be milliseconds. */
export const SECONDS_CEILING = 1e11;

const q = (v: unknown) => JSON.stringify(v);

/**
 * 2.1 id: "The literal prefix cfile_ followed by the base64url encoding of the file path". Decoded and
 * compared with path; `=` padding is accepted either way (RFC 4648 section 5 leaves it to the user).
 * The standard alphabet's + and / are a failure of the alphabet when the id is otherwise the encoding
 * of the path (translated to - and _ it decodes to the path); anything else fails the encoding.
 */
export const fileIdRule: RecordRule = (file) => {
  const { id, path } = file;
  if (typeof id !== 'string' || typeof path !== 'string') return undefined; // files.file.schema's
  const d = decodeFileId(id);
  if (d.ok && d.path === path) return undefined;
  const body = id.startsWith(FILE_ID_PREFIX) ? id.slice(FILE_ID_PREFIX.length) : undefined;
  if (body !== undefined && /[+/]/.test(body)) {
    const urlSafe = decodeFileId(FILE_ID_PREFIX + body.replaceAll('+', '-').replaceAll('/', '_'));
    if (urlSafe.ok && urlSafe.path === path) {
      return {
        requirementId: 'files.file.id-url-safe-alphabet',
        kind: 'id:standard-alphabet',
        message: `id ${q(id)} of path ${q(path)} uses the standard base64 alphabet (+ or /); 2.1 requires base64url (- and _)`,
      };
    }
  }
  return {
    requirementId: 'files.file.id-encodes-path',
    kind: d.ok ? 'id:other-path' : 'id:not-base64url',
    message: d.ok
      ? `id ${q(id)} decodes to ${q(d.path)}, expected the file's path ${q(path)}`
      : `id ${q(id)} of path ${q(path)} is not cfile_ + base64url(path): it ${d.reason}; expected ${q(encodeFileId(path))}`,
  };
};

/** 2.1 container_id: "Echoes the container_id path parameter" (4.1: a restarted session's -r<nonce> id included). */
export function containerIdEchoRule(containerId: string): RecordRule {
  return (file) =>
    file.container_id === containerId
      ? undefined
      : {
          requirementId: 'files.file.container-id-echo',
          kind: 'container_id',
          message: `container_id is ${q(file.container_id)}, expected the path parameter ${q(containerId)} exactly (2.1)`,
        };
}

/** 2.1 created_at: "Unix timestamp in seconds", an integer. An absent field is files.file.schema's (required). */
export const createdAtSecondsRule: RecordRule = (file) => {
  if (!('created_at' in file)) return undefined;
  const t = file.created_at;
  const fail = (kind: string, message: string): RecordViolation => ({
    requirementId: 'files.file.created-at-seconds',
    kind,
    message,
  });
  if (typeof t !== 'number' || !Number.isInteger(t))
    return fail('created_at:not-integer', `created_at of ${q(file.path)} is ${q(t)}, expected an integer (2.1)`);
  if (t > SECONDS_CEILING)
    return fail(
      'created_at:milliseconds',
      `created_at of ${q(file.path)} is ${t}, which in seconds is after the year 5138: milliseconds, not the seconds of 2.1`,
    );
  return undefined;
};

/** 2.1 path: "Path relative to the container", read as not beginning with "/" (SHOULD: no grammar is given). */
export const pathRelativeRule: RecordRule = (file) =>
  typeof file.path === 'string' && file.path.startsWith('/')
    ? {
        requirementId: 'files.file.path-relative',
        kind: 'path:absolute',
        message: `path ${q(file.path)} begins with "/", expected a path relative to the container`,
      }
    : undefined;

/** ContainerFile schema rules (paths relative to the file) that a rule above judges under its own requirement. */
export function ownedInFile(v: SchemaViolation): boolean {
  return (
    (v.keyword === 'pattern' && v.path === '/id') || // files.file.id-encodes-path / id-url-safe-alphabet
    (v.keyword === 'type' && v.path === '/created_at')
  ); // files.file.created-at-seconds
}

/** Every file of every 200 page of listContainerFiles, whichever check fetched it. */
export const containerFileRecordsJudge: ResponseJudge = {
  id: 'files.records',
  requirements: [
    'files.file.id-encodes-path',
    'files.file.id-url-safe-alphabet',
    'files.file.container-id-echo',
    'files.file.created-at-seconds',
    'files.file.path-relative',
  ],
  judge(response): Finding[] {
    if (response.operation !== 'listContainerFiles' || response.status !== 200) return [];
    const rules: RecordRule[] = [fileIdRule, createdAtSecondsRule, pathRelativeRule];
    const containerId = response.pathParams.container_id;
    if (containerId !== undefined) rules.push(containerIdEchoRule(containerId));
    return recordFindings(response, '/data', arrayAt(response.json, 'data'), rules);
  },
};
