import type { FaultDeclaration } from './index.ts';

/** Faults of the reference in pagination behaviour (4.1): what only following pages reveals. */
export const PAGINATION_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-after-inclusive',
    operation: 'listContainerFiles',
    breaks: ['files.after.strictly-after'],
    description: 'after resumes AT the named path, listing the cursor file again',
  },
  {
    name: 'files-after-nfc-normalized',
    operation: 'listContainerFiles',
    breaks: ['files.after.strictly-after'],
    description:
      'The path an after id names is normalised to NFC before it is compared: after the id of the NFD "intl/cafe\u0301.md", the NFC "intl/caf\u00e9.md" listed after it is skipped (4.1 "Listing resumes strictly after that path").',
  },
  {
    name: 'files-page-larger-than-limit',
    operation: 'listContainerFiles',
    breaks: ['files.limit.page-size', 'files.limit.default-maximum'],
    alsoFails: [
      {
        id: 'files.limit.default',
        why: 'The page without limit holds 101 files, not the default of 100 (4.1 / 8 "Default 100").',
      },
    ],
    description: 'every page holds one file more than limit',
  },
  {
    name: 'pagination-skip-item-between-pages',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.limit-independent', 'files.after.strictly-after', 'files.pagination.next-page'],
    description:
      'a page fetched with after silently drops the first file after the cursor: the page does not resume strictly after the cursor, walks at two limits list different files (the walk at limit 1000 misses files too, so "every file exactly once" shows only as that difference), and following last_id loses a file another walk lists (files.pagination.walks-agree)',
  },
  {
    name: 'files-last-id-skips-file-at-some-limits',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page', 'files.pagination.last-id-is-last-listed'],
    description:
      'at limits 21 to 64, a full page\'s last_id names the next file, which the page did not list: a walk at those limits resumes after that file and never lists it (4.1 rule 2 "`last_id` is the id of the last listed file"); each page alone looks like one ending at the scan bound (rule 3)',
  },
  {
    name: 'files-last-id-loses-file-near-start',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page', 'files.pagination.last-id-is-last-listed'],
    description:
      "a page whose last listed file is followed by a run of hidden objects longer than the scan bound names, as last_id, the first file after that run, when it is one of the container's first ten (near the start, behind the .sync run): every walk from the start resumes after it and never lists it, full pages and pages that end at the scan bound alike; only a walk that begins after the last file before the run lists it (2.2, 4.1 rules 2 and 3)",
  },
  {
    name: 'files-full-page-last-id-skips-file',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.last-id-is-last-listed'],
    alsoFails: [
      {
        id: 'files.pagination.next-page',
        why: 'A walk that follows such a last_id never lists the skipped file, which walks at other limits list right after the same file (2.2 has_more "True when another page can be fetched with `after` set to `last_id`").',
      },
      {
        id: 'files.pagination.limit-independent',
        why: 'The walk whose first page ends right before the hidden objects lists another file there than the walk at limit 1000, whose page ended at the scan bound (4.1 "Lists the files of a container in lexicographic path order").',
      },
    ],
    description:
      'a page that ends at its limit, not at the scan bound, and whose last file is followed by a run of hidden objects longer than the scan bound, names as last_id the first file after the run, which it did not list: the walk resumes after that file and skips it (4.1 rule 2 "`last_id` is the id of the last listed file"; rule 3\'s exception is for pages that end at the scan bound)',
  },
  {
    name: 'files-large-listing-record-object-file',
    operation: 'listContainerFiles',
    breaks: ['files.file.schema'],
    description:
      'The main container holds 20,000 files with 3,000 hidden bookkeeping objects in a row after every 2,000th (data.ts LARGE_LISTING: about 500 pages at limit 1000), and its last file says object "file" instead of "container.file" (2.1): seen only by a walk that reads the listing to its end.',
  },
  {
    name: 'pagination-has-more-false-on-truncated-page',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page'],
    description: 'a page that ends at the scan bound says has_more false although files remain',
  },
  {
    name: 'pagination-wrong-sort-order',
    operation: 'listContainerFiles',
    breaks: ['files.list.path-order', 'files.after.strictly-after'],
    description: 'the key space is ordered case-insensitively instead of byte-wise',
  },
  {
    name: 'pagination-cursor-cycle',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.progress', 'files.pagination.scan-bound-position'],
    description: 'a page fetched with after hands the same cursor back: following it never ends',
  },
  {
    name: 'pagination-cursor-backwards',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.progress', 'files.pagination.scan-bound-position'],
    description: 'last_id names a position before the cursor of the request',
  },
  {
    name: 'files-null-last-id-one-file-last-page',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.null-last-id'],
    description:
      'A last page (has_more false) that lists exactly one file has a null last_id (4.1 rule 4): seen only where a walk at a small limit reaches the end of the listing.',
  },
  {
    name: 'files-has-more-false-near-end',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page'],
    description:
      'A page that lists files and leaves one or two after them says has_more false (2.2: "True when another page can be fetched"): seen only at the last pages of small limits.',
  },
];
