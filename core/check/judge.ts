import type { RequirementId } from '../../spec/requirement-ids.ts';
import type { Exchange } from './evidence.ts';
import type { JsonBodyFacts } from '../http/json-body.ts';
import type { Operation } from '../document/operations.ts';

/**
 * A response the run received, whichever check sent it: what whole-run judgements see. Record rules
 * (every record of every page is judged) and per-response schema validation are functions of these,
 * fed each response as it arrives, whichever check receives it (core/run/execute-check.ts: what they find
 * fails that check), as Schemathesis feeds every response to its response checks.
 */
export interface SeenResponse extends JsonBodyFacts {
  operation: Exclude<Operation, 'general'>;
  /** Which check sent it (for the report's evidence). */
  check: string;
  status: number;
  /** The Content-Type header as received (the exchange's is masked for the report). */
  contentType?: string;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  json: unknown;
  /** The body as received, unmasked: a response with the same body and request is judged once (core/check/judge-memo.ts). */
  text?: string;
  /** The query as sent (wire names). */
  query: Readonly<Record<string, string>>;
  /** The path parameters as sent (`container_id`, `author`, `slug`). */
  pathParams: Readonly<Record<string, string>>;
  /** Which credential the request carried: the management key, the restricted key, none or another value. */
  auth: 'key' | 'restricted' | 'none' | 'other';
  /**
   * List interns with the management key: the workspace of that key (the target file's
   * interns.workspaceId), what every page is judged against (4.3 "The API key selects ... the workspace").
   * `filterNamed`: the target file names the workspace filter (interns.params), so the preflight could
   * ask whether that workspace is the key's (cli/preflight.ts); without it a failure hints at a typo.
   */
  interns?: { keyWorkspace: string; filterNamed: boolean };
  /**
   * Sent to the target file's regional base URL (4.3 "Requests sent to regional host names are
   * refused"): how the refusal is answered, status and body, is not shown, so no error rule judges it.
   */
  regional?: boolean;
  exchange: Exchange;
}

/** One violation a judge found: attributed to one requirement, with the exchange it was seen in. */
export interface Finding {
  requirementId: RequirementId;
  message: string;
  exchange: Exchange;
  /** Position of the offending record in the page's array (`data[i]`, `endpoints[i]`), when there is one. */
  position?: number;
  /** A key that makes two findings the same violation (reported once), e.g. `${requirementId}:${field}`. */
  dedupeKey?: string;
}

/** A whole-run judgement: which requirements it can fail, and a pure function of one response. */
export interface ResponseJudge {
  id: string;
  requirements: readonly RequirementId[];
  judge(response: SeenResponse): Finding[];
  /** What a response shows on a point the document leaves open (observed, never failed). */
  observe?(response: SeenResponse): { requirementId: RequirementId; value: unknown } | undefined;
  /**
   * What whole-run checks compare across responses (a walk at one limit against a walk at another),
   * kept for the run under this judge's id (core/run/run-notes.ts; ProbeContext.notes).
   */
  note?(response: SeenResponse): RunNote | undefined;
}

/**
 * What a whole-run check keeps of one response (core/run/run-notes.ts): a few ids, paths or cursors, never
 * the body. `key` names the request it answers (a page asked again replaces nothing: the first answer
 * is kept); `chars` is its weight against the run's bound.
 */
export interface RunNote {
  key: string;
  value: unknown;
  chars: number;
}
