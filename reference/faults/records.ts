import type { FaultDeclaration } from './index.ts';
import type { FaultPosition } from '../options.ts';

/**
 * Faults that break ONE record deep in the data, where no check's sample looks: one file of a
 * listing of more than 1,300 files (past several scan-bound pages at limit 1000), one intern past the
 * first 100 of the key's, one endpoint that is not the first, one string of one body. Only a judge of
 * every record of every response catches them. options.faultPosition moves the bad record to the
 * first, the middle or the last place (default last), so a test can show it is caught wherever it sits.
 */
export const RECORD_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-record-source-user',
    operation: 'listContainerFiles',
    breaks: ['files.file.schema'],
    description:
      'One file of the main container (the last in path order) says source "user" instead of "assistant" (2.1).',
  },
  {
    name: 'files-record-object-file',
    operation: 'listContainerFiles',
    breaks: ['files.file.schema'],
    description:
      'One file of the main container (the last in path order) says object "file" instead of "container.file" (2.1).',
  },
  {
    name: 'files-record-created-at-millis',
    operation: 'listContainerFiles',
    breaks: ['files.file.created-at-seconds'],
    description:
      'One file of the main container (the last in path order) has created_at in milliseconds (2.1 "in seconds").',
  },
  {
    name: 'files-record-id-other-path',
    operation: 'listContainerFiles',
    breaks: ['files.file.id-encodes-path'],
    description:
      'The id of one file of the main container (the last in path order) is the base64url of its path followed by a NUL, not of its path (2.1); as a cursor it resumes after that path as before.',
  },
  {
    name: 'interns-record-status-paused',
    operation: 'listInterns',
    breaks: ['interns.intern.status-value'],
    description:
      'One intern of the key (the 500th newest) has status "paused", which section 3 does not list; no status filter selects it.',
  },
  {
    name: 'interns-record-created-at-offset',
    operation: 'listInterns',
    breaks: ['interns.intern.timestamps'],
    description:
      'One intern of the key (the 500th newest) has createdAt written with a +02:00 offset (the same instant), not in UTC (2.5).',
  },
  {
    name: 'models-record-endpoint-pricing-number',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.pricing-decimal-strings'],
    description:
      'One endpoint of each model (the last; the third of four with faultPosition middle) has pricing.completion as a JSON number, not a string (2.4).',
  },
  {
    name: 'interns-record-no-vault-id',
    operation: 'listInterns',
    breaks: ['interns.intern.fields-present'],
    description: 'One intern of the key (the 500th newest) has no vault_id: a 2.5 field that is never null.',
  },
  {
    name: 'models-record-pricing-two-fields',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.pricing-decimal-strings'],
    description:
      'One endpoint of each model (the last; the third of four with faultPosition middle) has pricing with prompt and completion only (2.4 "Four fields").',
  },
  {
    name: 'models-record-latency-no-p99',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.percentiles'],
    description:
      'One endpoint of each model (the last; the third of four with faultPosition middle) has latency_last_30m without p99 (2.4 "Numbers p50, p75, p90, p99").',
  },
  {
    name: 'models-description-latin1',
    operation: 'listModelEndpoints',
    breaks: ['general.json-body'],
    description:
      'The model description ends in "(café)" with the é sent as the Latin-1 byte 0xE9, which is not UTF-8 (RFC 8259 section 8.1: JSON is UTF-8).',
  },
];

/** Index of the one bad record among `n` records: the first, the middle (the third of four) or the last. */
export function recordIndex(position: FaultPosition, n: number): number {
  if (n <= 0) return -1;
  return position === 'first' ? 0 : position === 'middle' ? Math.floor(n / 2) : n - 1;
}
