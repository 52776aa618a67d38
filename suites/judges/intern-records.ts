/**
 * The rules of one intern (2.5) that have a requirement of their own: the status value (section 3),
 * the UUID fields, the timestamps, the host name and the model identifier. Applied to every intern of
 * every 200 answer of list interns the run receives (a page of 500 included, 4.3's maximum), and by
 * the interns.intern.* checks to the page they read themselves. Each rule reads the field as the
 * requirement's interpretation in spec/requirements.yaml says; a field of the wrong type or absent
 * is interns.intern.schema's (the response-schema judge) and is not judged here.
 */
import type { Finding, ResponseJudge } from '../../core/check/judge.ts';
import { HOST_LABEL, INTERN_STATES, UUID, parseUtcMillis } from '../support/interns.ts';
import { AUTHOR_SLUG } from '../support/values.ts';
import { arrayAt, recordFindings, type RecordRule } from './records.ts';

const q = (v: unknown) => JSON.stringify(v);

/** 2.5 / 3: "One of the lifecycle statuses in section 3" (exact, case-sensitive values). */
export const statusValueRule: RecordRule = (intern) =>
  typeof intern.status === 'string' && !(INTERN_STATES as readonly string[]).includes(intern.status)
    ? {
        requirementId: 'interns.intern.status-value',
        kind: 'status',
        message: `status ${q(intern.status)} is not a section 3 state`,
      }
    : undefined;

/** 2.5: id, workspaceId and vault_id are "string (UUID format)": the 8-4-4-4-12 hexadecimal form of RFC 9562. */
export const uuidFieldsRule: RecordRule = (intern) => {
  for (const field of ['id', 'workspaceId', 'vault_id']) {
    const v = intern[field];
    if (typeof v === 'string' && !UUID.test(v))
      return {
        requirementId: 'interns.intern.uuid-fields',
        kind: `uuid:${field}`,
        message: `${field} ${q(v)} is not a UUID`,
      };
  }
  return undefined;
};

/** 2.5: createdAt and updatedAt are "ISO 8601 UTC timestamp with milliseconds": three fraction digits, UTC (Z or +00:00), a real date. */
export const timestampsRule: RecordRule = (intern) => {
  for (const field of ['createdAt', 'updatedAt']) {
    const v = intern[field];
    if (typeof v === 'string' && parseUtcMillis(v) === undefined) {
      return {
        requirementId: 'interns.intern.timestamps',
        kind: `timestamp:${field}`,
        message: `${field} ${q(v)} is not an ISO 8601 UTC timestamp with milliseconds`,
      };
    }
  }
  return undefined;
};

/** 2.5 hostname "<intern_name>.<domain>": at least two non-empty dot-separated labels (requirement interpretation). */
export const hostnameShapeRule: RecordRule = (intern) => {
  if (typeof intern.hostname !== 'string') return undefined;
  const labels = intern.hostname.split('.');
  return labels.length >= 2 && labels.every((l) => l.length > 0)
    ? undefined
    : {
        requirementId: 'interns.intern.hostname-shape',
        kind: 'hostname:shape',
        message: `hostname ${q(intern.hostname)} is not <intern_name>.<domain>`,
      };
};

/**
 * True when the intern's name can be judged against its host name: only a name that is itself a host
 * label can appear verbatim in one; how a display name becomes a label is not shown (interpretation).
 */
export function hostnameNameJudgeable(intern: Record<string, unknown>): boolean {
  return typeof intern.name === 'string' && typeof intern.hostname === 'string' && HOST_LABEL.test(intern.name);
}

/** A display name made a host label the common way: lower case, every other run of characters one hyphen. */
function labelOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * 2.5 "<intern_name>.<domain>": the first label is the name; host names compare case-insensitively
 * (RFC 4343). Where the name is itself a host label the words leave no room (MUST,
 * interns.intern.hostname-label-name); how another name becomes a label is not shown, so there the
 * common lower-case-and-hyphens form is expected as a SHOULD (interns.intern.hostname-name).
 */
export const hostnameNameRule: RecordRule = (intern) => {
  if (typeof intern.name !== 'string' || typeof intern.hostname !== 'string') return undefined;
  const { name, hostname } = intern as { name: string; hostname: string };
  const first = (hostname.split('.')[0] ?? '').toLowerCase();
  if (hostnameNameJudgeable(intern)) {
    return first === name.toLowerCase()
      ? undefined
      : {
          requirementId: 'interns.intern.hostname-label-name',
          kind: 'hostname:name',
          message: `hostname ${q(hostname)} does not start with the name ${q(name)}`,
        };
  }
  return first === labelOf(name)
    ? undefined
    : {
        requirementId: 'interns.intern.hostname-name',
        kind: 'hostname:label',
        message: `hostname ${q(hostname)} does not start with ${q(labelOf(name))}, the name ${q(name)} made a host label`,
      };
};

/** 2.5 model: "Model identifier <author>/<slug>" (as 2.3). */
export const modelShapeRule: RecordRule = (intern) =>
  typeof intern.model === 'string' && !AUTHOR_SLUG.test(intern.model)
    ? {
        requirementId: 'interns.intern.model-shape',
        kind: 'model',
        message: `model ${q(intern.model)} is not <author>/<slug>`,
      }
    : undefined;

const INTERN_RULES: readonly RecordRule[] = [
  statusValueRule,
  uuidFieldsRule,
  timestampsRule,
  hostnameShapeRule,
  hostnameNameRule,
  modelShapeRule,
];

/** Every intern of every 200 answer of list interns, whichever check (and whichever query) fetched it. */
export const internRecordsJudge: ResponseJudge = {
  id: 'interns.records',
  requirements: [
    'interns.intern.status-value',
    'interns.intern.uuid-fields',
    'interns.intern.timestamps',
    'interns.intern.hostname-shape',
    'interns.intern.hostname-label-name',
    'interns.intern.hostname-name',
    'interns.intern.model-shape',
  ],
  judge(response): Finding[] {
    if (response.operation !== 'listInterns' || response.status !== 200) return [];
    return recordFindings(response, '/data', arrayAt(response.json, 'data'), INTERN_RULES);
  },
};
