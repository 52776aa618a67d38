/**
 * listContainerFiles `after` (4.1: "the previous page's `last_id`, or any container file id. Listing
 * resumes strictly after that path."). Data-agnostic: paths are built around the target's own listing.
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { expectStatus } from '../../core/check/expect.ts';
import { encodeFileId } from '../../core/document/file-id.ts';
import { afterInSomeOrder } from '../support/path-order.ts';
import { fullListing } from '../support/traversal.ts';
import {
  CONTROL,
  expectRejected,
  firstFilesAfter,
  main,
  orderOf,
  prefixlessScanCursor,
  q,
} from '../support/container-files.ts';
import {
  pathBetween,
  readPage,
  usesPadding,
  walkAllowance,
  walkNotReached,
  walkPages,
  walkToFile,
  type FetchedPage,
} from '../support/file-pages.ts';
import { shown } from '../support/values.ts';

/** Listed files whose cursors the unusual-paths check asks, at most. */
const UNUSUAL_PICKS = 8;
/**
 * Indexes of listed paths a server is likeliest to change when it decodes them from an id, the first
 * two of each kind in listing order (at most UNUSUAL_PICKS): not in NFC (a server normalising would
 * skip the NFC twin), astral characters (UTF-16 surrogates), URL-special characters and blanks,
 * other non-ASCII, long paths.
 */
/** A path quoted with every character outside printable ASCII escaped: an NFD and an NFC spelling look alike otherwise. */
const qEscaped = (p: string) =>
  JSON.stringify(p).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function unusualPaths(paths: readonly string[]): number[] {
  const kinds: ReadonlyArray<(p: string) => boolean> = [
    (p) => p.normalize('NFC') !== p,
    (p) => /[\u{10000}-\u{10FFFF}]/u.test(p),
    (p) => /[%+&=?#\\ ]/.test(p),
    (p) => /[^\x20-\x7e]/.test(p),
    (p) => p.length > 200,
  ];
  const picked: number[] = [];
  for (const kind of kinds) {
    let n = 0;
    for (let i = 0; i < paths.length && n < 2 && picked.length < UNUSUAL_PICKS; i++) {
      if (kind(paths[i]!) && !picked.includes(i)) {
        picked.push(i);
        n++;
      }
    }
  }
  return picked;
}

export const containerFilesAfterChecks = defineChecks([
  {
    id: 'files.after.strictly-after',
    title: "after set to the k-th file's id resumes exactly at file k+1 of the same page",
    operation: 'listContainerFiles',
    requirements: ['files.after.strictly-after'],
    async probe(ctx: ProbeContext) {
      // 4.1 `after`: "Listing resumes strictly after that path." Compare the page with itself: the
      // page after its k-th file starts with its (k+1)-th and lists nothing at or before the k-th.
      const limit = 5;
      // Pages without a file are followed on (4.1 rule 3: any number may come in a row).
      const { pages } = await walkPages(ctx, main(ctx), {
        limit,
        maxPages: 5,
        followEmpty: true,
        enough: (ps) => ps[ps.length - 1]!.page.data.length >= 2,
      });
      const base = pages.find((p) => p.page.data.length >= 2);
      if (!base)
        return ctx.skip(
          `no page of the first ${pages.length} at limit ${limit} (${pages.filter((p) => p.page.data.length > 0).length} of them with a file) lists two files`,
        );
      const order = orderOf(base);
      const data = base.page.data;
      const k = Math.floor((data.length - 2) / 2);
      const cursor = data[k]!;
      const walk = await firstFilesAfter(ctx, cursor.id, limit);
      const notReached = walkNotReached(walk, `after=${q(cursor.id)}`);
      if (notReached) return ctx.skip(notReached);
      const next = walk.page;
      for (const f of next.page.data) {
        const why = order.before(cursor.path, f.path);
        // After the cursor in another reading than the page's: an order the listing does not keep is
        // files.list.path-order's (page-rules.ts), the resumption itself is strictly after.
        if (why && afterInSomeOrder(cursor.path, f.path)) continue;
        ctx.conform(
          !why,
          ctx.requirement,
          `after=${q(cursor.id)} (path ${q(cursor.path)}) but the page lists ${q(f.path)}, which is not after it: ${why}`,
          next.res,
        );
      }
      const expected = data.slice(k + 1).map((f) => f.path);
      const got = next.page.data.map((f) => f.path);
      // Only where the listing went on (pages without a file are followed, 4.1 rule 3) and then ended:
      // a cursor that stops moving forward is files.pagination.progress's to judge, not this.
      if (walk.end === 'no-cursor' || walk.end === 'no-progress')
        return ctx.skip(
          `after=${q(cursor.id)} the listing went on with has_more true but ${walk.end === 'no-cursor' ? 'no cursor' : 'a cursor that does not move forward'} before listing a file: where it resumes is not judged here (files.pagination.last-id-when-has-more, files.pagination.progress)`,
        );
      ctx.conform(
        got.length > 0,
        ctx.requirement,
        `after=${q(cursor.id)} lists no file, expected ${q(expected[0]!)} (listed after it on the page before)`,
        next.res,
      );
      const n = Math.min(got.length, expected.length);
      ctx.conform(
        got.slice(0, n).every((p, i) => p === expected[i]),
        ctx.requirement,
        `after=${q(cursor.id)} lists ${shown(got.slice(0, n))}, expected ${shown(expected.slice(0, n))} (the files after ${q(cursor.path)} on the page before)`,
        next.res,
      );
    },
  },
  {
    id: 'files.after.listed-unusual-paths',
    title:
      'after set to the id of a listed file whose path is unusual (not NFC, astral, URL-special, not ASCII, long) resumes at the file listed next',
    operation: 'listContainerFiles',
    // files.pagination.next-page: the full listing it reads fails it when a cursor of the target's own is refused.
    requirements: ['files.after.strictly-after', 'files.after.any-file-id', 'files.pagination.next-page'],
    estimatedRequests: 2 * UNUSUAL_PICKS + 2,
    async probe(ctx: ProbeContext) {
      // 4.1 `after`: "any container file id. Listing resumes strictly after that path." A file's own id
      // names its path exactly: what a server does to the path it decodes (normalises it, decodes a
      // `%` or `+` again, cuts it short) shows on the paths it would change, so those are asked.
      const full = await fullListing(ctx, main(ctx));
      const picks = unusualPaths(full.files.map((f) => f.path));
      if (picks.length === 0)
        return ctx.skip(
          `none of the ${full.files.length} listed paths is unusual (all NFC, ASCII, short, without URL-special characters)`,
        );
      const notReached: string[] = [];
      let judged = 0;
      // One walk's share of the budget for all the picks' walks together (file-pages.ts walkAllowance).
      const allowance = walkAllowance(ctx);
      const started = ctx.api.asked;
      for (const i of picks) {
        const file = full.files[i]!;
        const next = full.files[i + 1]?.path;
        if (next === undefined && !full.complete) continue;
        const res = await ctx.api.listContainerFiles(main(ctx), { limit: 2, after: file.id });
        // Whether a path with a control character or a leading "/" may be named is left open
        // (readings cursor-control-refused, cursor-absolute-refused).
        if (res.status === 400 && (CONTROL.test(file.path) || file.path.startsWith('/'))) continue;
        ctx.conform(
          res.status === 200,
          'files.after.any-file-id',
          `after=${q(file.id)} (the id of the listed ${qEscaped(file.path)}) answered HTTP ${res.status}, not 200`,
          res,
        );
        // Pages that end at the scan bound may come back empty, any number in a row (4.1 rule 3, 8 rule 1):
        // followed to the first file, within the walk's share of the budget.
        const left = Math.max(1, allowance - (ctx.api.asked - started));
        const walk = await walkToFile(ctx, main(ctx), {
          limit: 2,
          after: file.id,
          first: { res, page: readPage(res), limit: 2, after: file.id },
          maxRequests: left,
        });
        const why = walkNotReached(walk, `after=${q(file.id)}`);
        if (why) {
          notReached.push(why);
          continue;
        }
        // A cursor that stops moving forward before a file is listed is files.pagination.progress's.
        if (walk.end === 'no-cursor' || walk.end === 'no-progress') continue;
        judged++;
        const got = walk.page.page.data[0]?.path;
        ctx.conform(
          got === next,
          ctx.requirement,
          `after=${q(file.id)} (the id of the listed ${qEscaped(file.path)}) resumed with ${got === undefined ? 'no file' : qEscaped(got)}, but the listing lists ${next === undefined ? 'no file' : qEscaped(next)} after it`,
          walk.page.res,
        );
      }
      // Nothing asked and compared is nothing judged: said, never passed silently.
      if (judged === 0)
        ctx.skip(
          notReached[0] ??
            `none of the ${picks.length} unusual listed paths was judged: each was the last file of a listing cut short by the budget, a path whose refusal is left open, or followed by a cursor that stopped moving forward (files.pagination.progress's)`,
        );
    },
  },
  {
    id: 'files.after.any-file-id',
    title: 'after set to the id of a path between two listed files is accepted and resumes strictly after that path',
    operation: 'listContainerFiles',
    // Accepted is files.after.any-file-id; where the listing then resumes ("strictly after that path") is
    // files.after.strictly-after's, so a server that accepts the id and resumes in the wrong place fails that.
    requirements: ['files.after.any-file-id', 'files.after.strictly-after'],
    async probe(ctx: ProbeContext) {
      // 4.1 `after`: "the previous page's last_id, or any container file id" - including the id of
      // a path that no file has. A path between two neighbours of a page is surely not listed.
      const limit = 5;
      // A path between two neighbours, without control characters (whether those may be named is left open).
      const between = (a: string, b: string) => {
        const c = pathBetween(a, b);
        return c !== undefined && !CONTROL.test(c) ? c : undefined;
      };
      const hasPair = (p: FetchedPage) =>
        p.page.data.some((f, i) => i > 0 && between(p.page.data[i - 1]!.path, f.path) !== undefined);
      // Pages without a file are followed on (4.1 rule 3: any number may come in a row).
      const { pages } = await walkPages(ctx, main(ctx), {
        limit,
        maxPages: 5,
        followEmpty: true,
        enough: (ps) => hasPair(ps[ps.length - 1]!),
      });
      const base = pages.find(hasPair);
      if (!base)
        return ctx.skip(
          `no page of the first ${pages.length} at limit ${limit} (${pages.filter((p) => p.page.data.length > 0).length} of them with a file) has two neighbouring files with a path between them`,
        );
      const order = orderOf(base);
      const i = base.page.data.findIndex((f, j) => j > 0 && between(base.page.data[j - 1]!.path, f.path) !== undefined);
      const before = base.page.data[i - 1]!;
      const nextFile = base.page.data[i]!;
      const probe = between(before.path, nextFile.path)!;
      // The target's own padding style, so only the path is new (RFC 4648 section 5 leaves padding open).
      const after = encodeFileId(probe, usesPadding(pages));
      const res = await ctx.api.listContainerFiles(main(ctx), { limit, after });
      expectStatus(
        res,
        200,
        'files.after.any-file-id',
        `after=${q(after)}, the id of ${q(probe)} (between the listed ${q(before.path)} and ${q(nextFile.path)})`,
      );
      // Pages that end at the scan bound may come back empty, any number in a row (4.1 rule 3, 8 rule 1).
      const walk = await walkToFile(ctx, main(ctx), {
        limit,
        after,
        first: { res, page: readPage(res), limit, after },
      });
      const notReached = walkNotReached(walk, `after the id of ${q(probe)}`);
      if (notReached) return ctx.skip(notReached);
      if (walk.end === 'no-cursor' || walk.end === 'no-progress')
        return ctx.skip(
          `after the id of ${q(probe)} the listing went on with has_more true but ${walk.end === 'no-cursor' ? 'no cursor' : 'a cursor that does not move forward'} before listing a file: where it resumes is not judged here (files.pagination.last-id-when-has-more, files.pagination.progress)`,
        );
      const p = walk.page;
      for (const f of p.page.data) {
        const why = order.before(probe, f.path);
        ctx.conform(
          !why,
          'files.after.strictly-after',
          `after the id of ${q(probe)} the page lists ${q(f.path)}, which is not after it: ${why}`,
          p.res,
        );
      }
      const first = p.page.data[0];
      ctx.conform(
        first !== undefined && first.path === nextFile.path,
        'files.after.strictly-after',
        `after the id of ${q(probe)} the listing resumes at ${first ? q(first.path) : 'no file'}, expected ${q(nextFile.path)} (the file after it on the page before)`,
        p.res,
      );
    },
  },
  {
    id: 'files.after.no-prefix-rejected',
    title: 'after values without the cfile_ prefix are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.after.no-prefix-rejected', 'files.errors.shape'],
    async probe(ctx: ProbeContext) {
      // 2.1: "The literal prefix cfile_": without it a value is no container file id under any reading,
      // so it is malformed input, 400 (7.1) - unless it may be a scan position of the server's own:
      // 4.1 rule 3 lets any token name one (reading scan-cursor-bare-base64). Demanded only of a server
      // whose scan-bound cursors, as far as the shared listing shows, all carry the prefix.
      const own = await prefixlessScanCursor(ctx);
      if (own.unknown !== undefined) return ctx.skip(own.unknown);
      if (own.cursor !== undefined)
        return ctx.skip(
          `the target names scan positions without the cfile_ prefix (last_id ${q(own.cursor)}, 4.1 rule 3): a value without it may be one of its own cursors, so its refusal is not demanded`,
        );
      const bad: Array<[string, string]> = [
        ['YWJj', 'base64url of "abc" without the prefix'],
        ['file_YWJj', 'another prefix'],
        ['CFILE_YWJj', 'the prefix in capitals'],
      ];
      for (const [after, why] of bad)
        await expectRejected(ctx, { after }, 'files.after.no-prefix-rejected', `after=${q(after)} (${why})`);
    },
  },
  {
    id: 'files.after.invalid-rejected',
    title: 'after values with the cfile_ prefix that are not base64url are rejected with 400',
    operation: 'listContainerFiles',
    requirements: ['files.after.invalid-rejected'],
    async probe(ctx: ProbeContext) {
      // 2.1 defines the id (cfile_ + base64url); 7.1 gives 400 for malformed input. SHOULD: how strictly
      // a cursor is decoded is not said, and lenient decoders (Node's, Python's) accept some of these
      // (readings cursor-lenient-base64, cursor-standard-alphabet). Padding and trailing bits are left alone.
      const bad: Array<[string, string]> = [
        ['cfile_fn5+', 'standard-alphabet "+" (base64 of "~~~")'],
        ['cfile_Pz8/', 'standard-alphabet "/" (base64 of "???")'],
        ['cfile_YWJjZ', 'an impossible base64 length'],
        ['cfile_%%%!', 'characters outside base64url'],
      ];
      for (const [after, why] of bad) {
        const res = await ctx.api.listContainerFiles(main(ctx), { after });
        expectStatus(res, 400, 'files.after.invalid-rejected', `after=${q(after)} (${why})`);
      }
    },
  },
]);
