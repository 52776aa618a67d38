/**
 * What the implementation profile compares of an observation (reports/diff-compare.ts): the target's
 * choice where the document is silent, without the numbers that count what one run saw or did.
 *
 * A count says how much data the target holds or how much of it a run reached: how many endpoints a
 * model has, how many interns or pages were judged, how many times a status came back, how long an
 * answer took. It changes with the target's data, the shard a whole-run check ran in (it reads its
 * shard's requests only), the budget and the machine's load, never with a choice: two targets that
 * chose alike differ in counts, and so do an unsharded run and the merge of its shards. What stays is
 * the choice itself: which fields every endpoint carries, which types and statuses occur, the names,
 * statuses and values the target answered with. Each report keeps its counts; only the comparison
 * leaves them out.
 */

/** A path into an observed value: object keys, `*` for every key at that level. */
type Path = readonly string[];

interface CountFields {
  /** Numbers that count (left out). */
  counts?: readonly Path[];
  /** Tallies: objects of value -> how many times it was seen, compared by their values alone (sorted keys). */
  tallies?: readonly Path[];
}

/**
 * Per requirement, the count-like fields of what its checks observe (suites/checks/). A requirement not
 * listed observes no count: every field of it is compared.
 */
export const COUNT_FIELDS: Readonly<Record<string, CountFields>> = {
  // 2.4: which endpoint fields are required. `inEvery`, `sometimesAbsent` and `fieldsBeyond24` are the
  // choice; the number of endpoints and, per field, in how many of them it is present count the model's data.
  'models.endpoint.required-fields': { counts: [['endpoints'], ['present']] },
  // 2.4: nullability and values of the endpoint fields: which types and values occur is the choice;
  // how many endpoints carry each type counts the model's data.
  'models.endpoint.nullability': { counts: [['endpoints']], tallies: [['*', 'onEndpoints', 'types']] },
  // 2.5: the types of the nullable intern fields: which types occur (and an example of each) is the
  // choice; how many interns were judged, and how many carried each type, count what the run read.
  'interns.intern.nullable-types': { counts: [['interns']], tallies: [['*', 'types']] },
  // 7.2: the statuses model endpoints answers beyond 403, 404 and 500: which ones is the choice; how many
  // of each counts the requests the run (or the shard the check ran in) happened to send before it.
  'models.errors.other-statuses': { tallies: [[]] },
  // 8 rule 1: the pages the walk went through count the listing's length; the pages that ended at the scan
  // bound, empty or not, and the smallest of them are the only visible effect of the bound's value, kept.
  'files.scan-bound.value': { counts: [['pagesWalked']] },
  // 8 rule 4: whether list interns answered 408 is the choice; how long each took is a timing of this
  // run (the machine's load, what ran beside it).
  'interns.timeout.length': { counts: [['msBefore408']] },
};

const LEFT_OUT = Symbol('left out');

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value` with `edit` applied where `path` leads (a copy; LEFT_OUT removes the key). Linear in the value. */
function edited(value: unknown, path: Path, edit: (v: unknown) => unknown): unknown {
  if (path.length === 0) return edit(value);
  if (!isRecord(value)) return value;
  const [head, ...rest] = path;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const next = head === '*' || head === key ? edited(v, rest, edit) : v;
    if (next !== LEFT_OUT) out[key] = next;
  }
  return out;
}

const byUtf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The observation as the profile compares it: its count-like fields (COUNT_FIELDS) left out. */
export function withoutCounts(requirementId: string, observed: unknown): unknown {
  const fields = Object.hasOwn(COUNT_FIELDS, requirementId) ? COUNT_FIELDS[requirementId] : undefined;
  if (!fields) return observed;
  let out = observed;
  for (const path of fields.counts ?? []) out = edited(out, path, () => LEFT_OUT);
  for (const path of fields.tallies ?? [])
    out = edited(out, path, (v) => (isRecord(v) ? Object.keys(v).sort(byUtf16) : v));
  return out;
}
