/**
 * The recording of a merged run (`conformance merge`): the shards' recordings (each shard's
 * evidence.har, kept in blob/ as `evidence-shard-I-of-N.har`) joined into one evidence.har, shard after
 * shard, every entry of each. Its bodies are kept again within one run's bounds (core/http/recorder.ts
 * BodyBudget): N shards may hold N times a run's bodies, and the merged recording is one run's, read
 * whole by `conformance judge` and `verify`. Past a bound an entry stays, without its body, as a run
 * records it (rule "Hostile input": memory bounded). The shards' recordings were masked when each shard
 * wrote them; the merge, which has no key, writes them through the report directory's masked writer.
 *
 * The shard reports point their findings at entries of their own recording (`harEntry`): each is moved
 * by the number of entries of the shards before it, so it names the same entry in the merged one.
 */
import type { Exchange } from '../core/check/evidence.ts';
import { BodyBudget, RECORDING_BOUNDS } from '../core/http/recorder.ts';
import { BODY_LEFT_OUT, BOUND_REACHED, type RecordedRun } from './har.ts';

/** A recording as the merge reads it: HAR 1.2 with the suite's `_conformance`, entries not yet trusted. */
export interface ShardRecording {
  log: { version: string; creator: unknown; entries: unknown[]; comment?: unknown; _conformance: RecordedRun };
}

/** A shard's recording that cannot be joined: one line, said by the merge (exit 2). */
export class UnjoinableRecording extends Error {
  override readonly name = 'UnjoinableRecording';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The bytes a recorded body holds: what a run's recorder counted of it (its text decoded). */
function bodyBytes(content: Record<string, unknown>): number {
  const text = content['text'];
  if (typeof text !== 'string') return 0;
  return Buffer.byteLength(text, content['encoding'] === 'base64' ? 'base64' : 'utf8');
}

export class MergedRecording {
  private readonly entries: unknown[] = [];
  private readonly budget: BodyBudget;
  /** A shard's recording already left some bodies out. */
  private shardBoundReached = false;

  constructor(bounds: { runBytes: number; bodyBytes: number } = RECORDING_BOUNDS) {
    this.budget = new BodyBudget(bounds);
  }

  /** Adds a shard's entries after those already joined; the offset of its first entry in the merged recording. */
  add(rec: ShardRecording, name: string): number {
    const offset = this.entries.length;
    if (rec.log.comment !== undefined) this.shardBoundReached = true;
    for (const [i, entry] of rec.log.entries.entries()) this.entries.push(this.bounded(entry, `${name} entry ${i}`));
    return offset;
  }

  /** The entry as kept: its body left out past the run's bounds, as the run's recorder leaves it out. */
  private bounded(entry: unknown, where: string): unknown {
    const response = isRecord(entry) ? entry['response'] : undefined;
    const content = isRecord(response) ? response['content'] : undefined;
    if (!isRecord(entry) || !isRecord(response) || !isRecord(content) || !isRecord(entry['request']))
      throw new UnjoinableRecording(`${where} is not a HAR entry (request, response.content)`);
    if (typeof content['text'] !== 'string' || this.budget.keep(bodyBytes(content))) return entry;
    const { text: _text, encoding: _encoding, ...kept } = content;
    return { ...entry, response: { ...response, content: { ...kept, comment: BODY_LEFT_OUT } } };
  }

  get length(): number {
    return this.entries.length;
  }

  /** The merged recording (HAR 1.2), `run` its `_conformance`: the merged run's start, options and selection. */
  har(creator: unknown, run: RecordedRun) {
    return {
      log: {
        version: '1.2',
        creator,
        pages: [],
        entries: this.entries,
        ...(this.budget.reached || this.shardBoundReached ? { comment: BOUND_REACHED } : {}),
        _conformance: run,
      },
    };
  }
}

/**
 * A shard's outcome (or what its preflight received) with each finding's `harEntry` moved by `offset`
 * (its shard's first entry in the merged recording). A pointer outside the shard's own `entries` names no
 * entry of its recording and is dropped.
 */
export function movedPointers<T extends { failures: Array<{ exchanges: Exchange[] }> }>(
  outcome: T,
  offset: number,
  entries: number,
): T {
  const moved = (x: Exchange): Exchange => {
    const { harEntry, ...rest } = x;
    return harEntry !== undefined && Number.isInteger(harEntry) && harEntry >= 0 && harEntry < entries
      ? { ...rest, harEntry: harEntry + offset }
      : rest;
  };
  return { ...outcome, failures: outcome.failures.map((f) => ({ ...f, exchanges: f.exchanges.map(moved) })) };
}
