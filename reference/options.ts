import { MANAGEMENT_KEY, RESTRICTED_KEY, type HiddenRuns } from './data.ts';
import type { Operation } from './operations.ts';

/** Where a record fault puts its one bad record (reference/faults/records.ts). */
export type FaultPosition = 'first' | 'middle' | 'last';

/**
 * Knobs of the reference implementation. Defaults are the reference's own choices where the
 * service document is silent; conformant variants (reference/variants.ts) change them to other
 * legal choices; faults (reference/faults/) break exactly one requirement each.
 */
export interface ReferenceOptions {
  /** Names of faults from reference/faults/ to switch on (normally zero or one). */
  faults: readonly string[];
  /**
   * Where a fault that breaks one record (reference/faults/records.ts) puts it among the records it
   * applies to: the first, the middle or the last. Tests move one fault to the three places.
   */
  faultPosition: FaultPosition;
  /** Reading switches of reference/variants.ts (READING_SWITCHES): another faithful reading of the document's words. */
  readings: readonly string[];
  /** 2.1: ids keep their `=` padding (RFC 4648 section 5 leaves padding to the user). */
  paddedIds: boolean;
  /** 4.1 rule 5: `first_id` may be null; when true the reference always sends null. */
  firstIdNull: boolean;
  /** 8 rule 1: hidden bookkeeping objects examined per request before a page ends (value not shown). */
  scanBound: number;
  /**
   * Runs of hidden bookkeeping objects the main container holds beyond its own (data.ts HiddenRuns), or
   * null for its own only: the document bounds no run of them (8 rule 1, 4.1 rule 3 "`data` may be empty").
   */
  hiddenRuns: HiddenRuns | null;
  /**
   * The main container holds no file, only its hidden bookkeeping objects (2.2 "May be empty"; nothing
   * says the container a target file names holds any): every page of its listing is empty.
   */
  mainContainerEmpty: boolean;
  /** Extra unknown fields on every object (the document never forbids them). */
  extraFields: boolean;
  /** 2.4: endpoint fields whose presence/nullability is not shown are sent as null or left out. */
  sparseEndpoints: boolean;
  /** 7.3: HTTP status of the string-coded interns errors (not shown). */
  stringErrorStatus: { invalid_body: number; not_found: number; internal_error: number };
  /** 4.3: names of the interns query parameters (not shown). */
  internsParams: { limit: string; status: string; workspace: string };
  /**
   * 4.3 "How to fetch the page after one with `has_more` true: not shown": the reference takes the id of
   * a page's last intern in this query parameter (a target file names it as interns.cursorParam).
   */
  internsCursor: string;
  /** 8 rule 2: default interns page size (not shown). */
  internsDefaultPageSize: number;
  /**
   * The management key's workspace holds no intern (4.3: "The API key selects the caller, the workspace
   * and the visible interns"; nothing says a workspace holds any): every interns page is empty.
   */
  internsNone: boolean;
  /** 5 rule 3: operations that accept the restricted key (which key kind each needs is not shown). */
  restrictedKeyAcceptedBy: readonly Operation[];
  /** Content-Type of every JSON response. */
  contentType: string;
  /**
   * Every Nth request of an operation answered with a transient status the document lists for it
   * (0: never): 503 or 429 for listContainerFiles (7.1, 8 rule 3), 408 for list interns (7.3, 8 rule 4).
   */
  transientEvery: number;
  /**
   * The keys the reference accepts (section 5): the management key and the restricted one. A key may be
   * any b64token, a word its bodies hold too (`data`): the verdict does not depend on it.
   */
  keys: { management: string; restricted: string };
}

export const DEFAULT_REFERENCE_OPTIONS: ReferenceOptions = {
  faults: [],
  faultPosition: 'last',
  readings: [],
  paddedIds: false,
  firstIdNull: false,
  scanBound: 64,
  hiddenRuns: null,
  mainContainerEmpty: false,
  extraFields: false,
  sparseEndpoints: false,
  stringErrorStatus: { invalid_body: 400, not_found: 404, internal_error: 500 },
  internsParams: { limit: 'limit', status: 'status', workspace: 'workspace_id' },
  internsNone: false,
  internsCursor: 'after',
  internsDefaultPageSize: 50,
  restrictedKeyAcceptedBy: [],
  contentType: 'application/json',
  transientEvery: 0,
  keys: { management: MANAGEMENT_KEY, restricted: RESTRICTED_KEY },
};

/** What a started reference hands back: where it listens and the fixtures a target file names. */
/** What the reference reads of a request: an IncomingMessage, or the same three fields given in-process. */
export interface ReferenceRequest {
  method?: string;
  /** Path and query, as on the request line. */
  url?: string;
  headers: { authorization?: string };
}

export interface ReferenceServer {
  /** e.g. http://127.0.0.1:41234/v1 (section 9 rule 1: base_url includes /v1). */
  baseUrl: string;
  /** A regional host's base URL (4.3: list interns is refused there): a second loopback listener. */
  regionalBaseUrl: string;
  keys: { management: string; restricted: string };
  fixtures: {
    containerId: string;
    restartedContainerId: string;
    sessionContainerId: string;
    emptyContainerId: string;
    model: string;
    missingModel: string;
    forbiddenModel: string;
    workspaceId: string;
    otherWorkspaceId: string;
  };
  options: ReferenceOptions;
  /** Every request received: method and URL (path + query), in order. */
  readonly received: ReadonlyArray<{ method: string; url: string }>;
  /**
   * Answers one request as the main or the regional listener would, without a connection (recorded in
   * `received` like any other): the self-test's in-process runs (test/support/memory-transport.ts).
   */
  serve(
    host: 'main' | 'regional',
    req: ReferenceRequest,
  ): { status: number; headers: Record<string, string | number>; body: Buffer };
  close(): Promise<void>;
}
