/**
 * Where a path leads through symbolic links. A path the user gives can pass through a link committed
 * to a repository (`reports -> /etc`, `target.yaml -> /etc/shadow`): whoever can change the repository
 * would choose what the run reads or where it writes. A link in any component of the path that leads
 * outside the directory the run was started from is found here; the caller refuses it unless the user
 * allowed it explicitly. The components of `exempt` paths (the system's own layout: the temporary
 * directory, which is a link on some systems) are not looked at.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, parse, relative, resolve, isAbsolute, sep } from 'node:path';

export interface OutsideLink {
  /** The component that is a link, as an absolute path. */
  link: string;
  /** Where it leads (its real path, or where a dangling link points). */
  to: string;
}

/** Whether `path` is `root` or below it (both absolute and resolved). */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `path` and every ancestor of it, resolved. */
function prefixesOf(path: string): string[] {
  const out: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    out.push(at);
    if (dirname(at) === at) return out;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The first component of `path` (resolved against the working directory) that is a symbolic link
 * leading outside `root`, or undefined. Components that do not exist end the walk (nothing further
 * is followed). A path has at most a few hundred components: the walk is bounded by them.
 */
export function linkLeadingOutside(
  path: string,
  root: string,
  exempt: readonly string[] = [],
): OutsideLink | undefined {
  const realRoot = realOrSelf(root);
  const skip = new Set(exempt.flatMap(prefixesOf));
  const abs = resolve(path);
  let at = parse(abs).root;
  for (const part of abs.slice(at.length).split(sep).filter(Boolean)) {
    at = join(at, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      return undefined;
    }
    if (!isLink || skip.has(at)) continue;
    let to: string;
    try {
      to = realpathSync(at);
    } catch {
      // A dangling link (or a loop): where it points, as written.
      try {
        to = resolve(dirname(at), readlinkSync(at));
      } catch {
        to = at;
      }
    }
    if (!isWithin(to, realRoot)) return { link: at, to };
  }
  return undefined;
}
