import type { FaultDeclaration } from './index.ts';

/**
 * Faults that make a reading of the document's words that is NOT faithful (spec/readings.yaml, verdict
 * fail): each sits next to a faithful reading the suite accepts, so that accepting one never means
 * accepting the other. Each breaks the MUST that every reading of those words agrees on.
 */
export const READING_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-order-inconsistent',
    operation: 'listContainerFiles',
    breaks: ['files.list.path-order'],
    description:
      'Paths ordered with private-use characters (U+E000-U+F8FF) before astral ones and half-width forms (U+FF00-U+FFFF) after them: each neighbouring pair is in UTF-8 or in UTF-16 order, the listing in neither (2.2, 4.1).',
  },
  {
    name: 'files-listed-twice',
    operation: 'listContainerFiles',
    breaks: ['files.list.path-order'],
    description:
      'A page of three or more files lists its first file twice, next to itself, in place of its second: wrong under every reading of "lexicographic path order" (2.2). Every walk meets such a page and fails on its order first, so the walk\'s own rules (every file once, the same files at every limit) are not reached.',
  },
  {
    name: 'files-after-unprefixed-accepted',
    operation: 'listContainerFiles',
    breaks: ['files.after.no-prefix-rejected'],
    description:
      'An after value without the cfile_ prefix is read as the bare base64url of a path instead of refused with 400 (2.1 "the literal prefix", 7.1).',
  },
  {
    name: 'files-limit-above-maximum-served',
    operation: 'listContainerFiles',
    breaks: ['files.limit.maximum', 'files.limit.out-of-range-rejected'],
    description:
      'A limit above 1000 is honoured: a page holds up to that many files (4.1 "maximum 1000", refused or clamped under every reading).',
  },
  {
    name: 'files-scan-cursor-refused',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page'],
    description:
      'A page that ends at the scan bound names it with an opaque token that after then refuses with 400 (2.2: another page can be fetched with after set to last_id).',
  },
  {
    name: 'interns-limit-above-maximum-served',
    operation: 'listInterns',
    breaks: ['interns.limit.maximum', 'interns.limit.out-of-range-rejected'],
    description:
      'A page size above 500 is honoured: a page holds up to that many interns (4.3 "maximum 500", refused or clamped under every reading).',
  },
  {
    name: 'interns-limit-non-integer-accepted',
    operation: 'listInterns',
    breaks: ['interns.limit.non-integer-rejected'],
    description:
      'The page size is read with parseInt: "1.5" is 1, "abc" and "" give the default page, instead of invalid_body (4.3 "integer", 7.3).',
  },
  {
    name: 'models-pricing-not-numeric',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.pricing-decimal-strings'],
    description:
      'Every pricing value is written with a currency sign ("$0.0000025"): a string, but no decimal number under any reading (2.4).',
  },
];
