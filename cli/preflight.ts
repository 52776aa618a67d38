import { Client, type ApiResponse } from '../core/http/client.ts';
import type { CheckOutcome } from '../core/check/check.ts';
import { CannotJudge } from '../core/check/errors.ts';
import type { SeenResponse } from '../core/check/judge.ts';
import { judgeReceived } from '../core/run/response-findings.ts';
import { deadlineLeftMs, type RunSettings } from '../core/run/run-settings.ts';
import type { Target } from '../core/target/target.ts';
import { recordingTransport, type Recorder } from '../core/http/recorder.ts';
import { NodeTransport, TransportError, type Transport } from '../core/http/transport.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { soleOtherWorkspace } from '../suites/judges/intern-pages.ts';
import { internsQuery } from '../suites/support/interns-query.ts';
import { isObject } from '../suites/support/values.ts';
import { shown } from './args.ts';
import { ignoredInternsParams } from './interns-params-preflight.ts';

export interface Preflight {
  /** Why the run cannot be made (one line, exit 2), or undefined. */
  fatal?: string;
  /** Requests sent: they count against the run's budget. */
  requests: number;
  /**
   * Its responses judged by the run's response judges, as a check's are ("Judge every response"):
   * a target that breaks the document only on the run's first requests is caught whatever the
   * selection, every run making the same preflight.
   */
  received: CheckOutcome;
}

/** The preflight's id where the report names what it received (no declared check has it). */
export const PREFLIGHT_ID = 'run.preflight';

/**
 * One authenticated GET per operation before the suite starts, so the causes that would turn every
 * check into a failure are named as what they are, within seconds (rule "No green without evidence": a rejected key is
 * not a faulty server): an unreachable target, a key every operation rejects (5 rules 2-3), a base
 * URL under which no documented path exists (9 rule 1: it must end with /v1), and target file fields
 * the server plainly does not know or that leave nothing to judge (rule "Bad input exits 2": a careless target
 * file is named, not blamed on the server): a container or a model answered 404 while the key works
 * elsewhere, a main container that lists no file, a workspace that is not the key's, an interns
 * parameter name the target ignores (cli/interns-params-preflight.ts), all of them in one line. Any HTTP answer counts as reachable; the checks judge what the answers hold.
 */
export async function preflight(
  target: Target,
  settings: RunSettings,
  recorder?: Recorder,
  through?: Transport,
): Promise<Preflight> {
  const sent =
    through ?? new NodeTransport({ timeoutMs: settings.requestTimeoutMs, bodyCapBytes: settings.bodyCapBytes });
  const node = recorder ? recordingTransport(sent, recorder) : sent;
  let answered = false;
  // --deadline bounds the whole run, preflight included: each request is bounded by --timeout, but
  // requests in a row are not, so a target answering each just in time would hold the run past it.
  let deadlinePassed = false;
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    deadlineTimer = setTimeout(() => {
      deadlinePassed = true;
      reject(new TransportError("the run's deadline passed"));
    }, deadlineLeftMs(settings));
  });
  // The deadline may pass between requests, with no race listening: that rejection is read from deadlinePassed.
  deadline.catch(() => {});
  const transport: Transport = {
    get: (url, headers) =>
      Promise.race([
        node.get(url, headers).then(
          (r) => {
            answered = true;
            return r;
          },
          (e: unknown) => {
            if (e instanceof TransportError && e.answered) answered = true;
            throw e;
          },
        ),
        deadline,
      ]),
    close: () => node.close(),
  };
  const client = new Client(target, { ...settings, maxRetries: 0 }, transport);
  client.check = PREFLIGHT_ID;
  const seen: SeenResponse[] = [];
  client.onResponse = (response) => seen.push(response);
  const done = (fatal?: string): Preflight => ({
    // The preflight reads the target's answers as sent; what it says of them is masked (rule "Hostile input").
    ...(fatal ? { fatal: client.mask.text(fatal) } : {}),
    requests: client.log.count,
    received: judgeReceived(PREFLIGHT_ID, seen, RESPONSE_JUDGES, client.mask),
  });
  // Nothing was judged and the report directory was cleared before the preflight (cli/conformance.ts,
  // cli/api.ts, cli/direct-run.ts): no earlier report is left to read better than the truth.
  const late = () =>
    done(
      `the suite's deadline of ${settings.deadlineMs / 1000} s passed during the preflight (counted from the start of the run): nothing judged, no report written`,
    );
  const responses: Array<ApiResponse | undefined> = [];
  let unreadable: string | undefined;
  try {
    const sends = [
      () => client.listContainerFiles(target.containerFiles.containerId, { limit: 1 }),
      () => client.listModelEndpoints(target.modelEndpoints.model),
      () => client.listInterns({}),
    ];
    if (deadlinePassed || deadlineLeftMs(settings) === 0) return late();
    // Sent together: across a network the preflight costs one round trip, not three.
    const settled = await Promise.allSettled(sends.map((send) => send()));
    for (const s of settled) {
      if (s.status === 'fulfilled') responses.push(s.value);
      else {
        const e: unknown = s.reason;
        if (deadlinePassed) return late();
        if (e instanceof CannotJudge && e.reason === 'transport' && !answered) {
          return done(`target ${target.baseUrl} is unreachable: ${e.message.replace(/^GET \S+: /, '')}`);
        }
        // An answer that is no HTTP the suite reads (llhttp's HPE_*): the run could judge nothing of it.
        if (e instanceof CannotJudge && e.reason === 'transport' && /\(HPE_[A-Z_]+\)$/.test(e.message))
          unreadable = e.message.replace(/^GET \S+: /, '');
        responses.push(undefined);
      }
    }
    // Reached, but no answer could be read (headers past what Node reads, not HTTP): the cause, not "unreachable".
    if (unreadable && responses.every((r) => r === undefined))
      return done(`target ${target.baseUrl} answers, but no answer of the preflight could be read: ${unreadable}`);
    const statuses = responses.map((r) => r?.status);
    const all = (pred: (s: number) => boolean) => statuses.every((s) => s !== undefined && pred(s));
    const key = target.apiKeyVariable ? `apiKey (from $${target.apiKeyVariable})` : 'apiKey';
    if (all((s) => s === 401 || s === 403))
      return done(`${key} was rejected by every operation (${statuses.join(', ')}): check the key, not the server`);
    if (all((s) => s === 404))
      return done(
        `no operation found under baseUrl ${target.baseUrl} (404 on every documented path): does it end with /v1? (section 9 rule 1)`,
      );
    const [files, model, interns] = responses;
    // Every field the deployment does not know, in one line: a target file mended one field a run
    // would take a run per field.
    const [workspace, params] = await Promise.all([
      internsWorkspaceProblem(target, client, interns),
      ignoredInternsParams(target, client, interns),
    ]);
    const fields = [
      containerProblem(target, files, [model, interns]) ?? emptyContainerProblem(target, files),
      unservedModel(target, model, [files, interns]),
      workspace,
      ...params,
    ];
    return deadlinePassed ? late() : done(oneLineOf(fields.filter((f): f is string => f !== undefined)));
  } finally {
    clearTimeout(deadlineTimer);
    await transport.close();
  }
}

const CHECK_FILE = ' Check the target file';

/** The target file's problems as one line, its advice said once, at its end. */
function oneLineOf(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return undefined;
  // A problem's own full stop goes where the next one follows it ("; "): only the last keeps it.
  const said = problems
    .map((p) => (p.endsWith(CHECK_FILE) ? p.slice(0, -CHECK_FILE.length) : p))
    .map((p, i) => (i < problems.length - 1 ? p.replace(/\.$/, '') : p));
  return `${said.join('; ')}${CHECK_FILE}`;
}

const isSuccess = (r: ApiResponse | undefined): boolean => r !== undefined && r.status >= 200 && r.status < 300;

/**
 * 4.1 lists no 404 for listContainerFiles, and an unknown container may be listed empty or refused
 * with 403 (reading unknown-container-forbidden): a 404 or 403 on the target file's container while
 * another operation answered the same key 2xx (the key works, the base URL is right) is the file's
 * containerId, or a container this key may not read, before it is the server's fault.
 */
function containerProblem(
  target: Target,
  files: ApiResponse | undefined,
  others: ReadonlyArray<ApiResponse | undefined>,
): string | undefined {
  const ok = others.find(isSuccess);
  if (!files || (files.status !== 404 && files.status !== 403) || !ok) return undefined;
  const which = others.every(isSuccess) ? 'the other operations' : 'another operation';
  return `containerFiles.containerId ${shown(target.containerFiles.containerId)} was answered ${files.status} while ${which} answered ${ok.status}: is it a container of the deployment (and one this key may read)? Check the target file`;
}

/**
 * A model the key gets 404 for, while another operation answered the same key 2xx (the key works, the
 * base URL is right), is the target file's modelEndpoints.model before it is the server's fault: 7.2
 * answers "Resource not found" for a model that does not exist, and a model of another workspace may be
 * answered 404 so that its existence is not revealed (reading forbidden-model-404). Every check of the
 * operation (and auth.bearer-accepted on it) would be judged against a model the deployment does not serve.
 */
function unservedModel(
  target: Target,
  model: ApiResponse | undefined,
  others: ReadonlyArray<ApiResponse | undefined>,
): string | undefined {
  const ok = others.find(isSuccess);
  if (model?.status !== 404 || !ok) return undefined;
  const which = others.every(isSuccess) ? 'the other operations' : 'another operation';
  return `modelEndpoints.model ${shown(target.modelEndpoints.model)} was answered 404 while ${which} answered ${ok.status}: is it a model the deployment serves (and one this key may read)? Check the target file`;
}

/**
 * A main container that lists no file (its first page empty with has_more false: 4.1 rule 4, the whole
 * listing) leaves every listContainerFiles check of the main container nothing to judge, and a verdict
 * that says nothing of them. The deployment's data is not ours to fail, and a run that would judge
 * nothing of 4.1 is not one to certify: the target file names another container (rule "Bad input exits 2").
 */
function emptyContainerProblem(target: Target, files: ApiResponse | undefined): string | undefined {
  const list = files?.status === 200 ? files.json : undefined;
  if (!isObject(list) || !Array.isArray(list.data) || list.data.length > 0 || list.has_more !== false) return undefined;
  return `containerFiles.containerId ${shown(target.containerFiles.containerId)} lists no file (200 with an empty data and has_more false): the listContainerFiles checks need a container that has files. Check the target file`;
}

/**
 * 4.3: "The API key selects the caller, the workspace and the visible interns". Every intern the key
 * lists being of one workspace W that is not interns.workspaceId is what a typo in the target file
 * looks like, and also what a server listing another workspace's interns looks like (fault
 * interns-other-workspace-leak). The workspace filter tells them apart, when the target file names it
 * (4.3 "Names of these three query parameters: not shown"): set to interns.workspaceId, a server
 * refuses it (4xx) or lists nothing when that is not the key's workspace, which is the file's mistake;
 * when it lists that workspace's interns, the server contradicts itself and the checks judge it.
 */
async function internsWorkspaceProblem(
  target: Target,
  client: Client,
  interns: ApiResponse | undefined,
): Promise<string | undefined> {
  const own = target.interns.workspaceId;
  if (!target.interns.params || interns?.status !== 200) return undefined;
  const other = soleOtherWorkspace(interns.json, own);
  if (other === undefined) return undefined;
  let filtered: ApiResponse;
  try {
    filtered = await client.listInterns(internsQuery(target, { workspace: own }));
  } catch (e) {
    // No usable answer (time-out, 408 or 429 not retried here): nothing is concluded.
    if (e instanceof CannotJudge) return undefined;
    throw e;
  }
  const refused = filtered.status >= 400 && filtered.status < 500;
  const empty =
    filtered.status === 200 &&
    isObject(filtered.json) &&
    Array.isArray(filtered.json.data) &&
    filtered.json.data.length === 0;
  if (!refused && !empty) return undefined;
  const answer = refused ? `was refused (${filtered.status})` : 'listed no intern';
  return `interns.workspaceId ${shown(own)} is not the key's workspace: every intern the key lists is of workspace ${shown(other)}, and the workspace filter set to ${shown(own)} ${answer}. Check the target file`;
}
