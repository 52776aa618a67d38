import type { ReferenceOptions } from './options.ts';

/**
 * Conformant variants: the reference with other legal choices where the document is silent or
 * lenient. The suite must judge every one of them conformant (principle 1: a false failure on a
 * conformant implementation is as bad as a missed fault).
 */
export interface ConformantVariant {
  name: string;
  /** The legal choices it makes, with the section that leaves them open. */
  description: string;
  options: Partial<ReferenceOptions>;
}

export const CONFORMANT_VARIANTS: readonly ConformantVariant[] = [
  {
    name: 'padded-ids-null-first-id',
    description: 'ids keep their "=" padding (RFC 4648 section 5 leaves padding open); first_id is always null (4.1 rule 5)',
    options: { paddedIds: true, firstIdNull: true },
  },
  {
    name: 'tiny-scan-bound',
    description: 'a scan bound of 3 hidden objects (value not shown, 8 rule 1): many empty pages with has_more true (4.1 rule 3)',
    options: { scanBound: 3 },
  },
  {
    name: 'sparse-extra-charset',
    description:
      'endpoint fields null or absent where nullability and presence are not shown (2.4); unknown extra fields everywhere; Content-Type application/json; charset=utf-8',
    options: { sparseEndpoints: true, extraFields: true, contentType: 'application/json; charset=utf-8' },
  },
  {
    name: 'other-silent-choices',
    description:
      'interns query parameters named page_size/statuses/workspace (4.3), default page size 20 (8 rule 2), string-coded errors on 422/410/503 (7.3), restricted key accepted by list interns (5)',
    options: {
      internsParams: { limit: 'page_size', status: 'statuses', workspace: 'workspace' },
      internsDefaultPageSize: 20,
      stringErrorStatus: { invalid_body: 422, not_found: 410, internal_error: 503 },
      restrictedKeyAcceptedBy: ['listInterns'],
    },
  },
];
