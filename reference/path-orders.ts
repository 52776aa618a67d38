/**
 * Key-space views of a container in another path order than the byte-wise one of data.ts: the UTF-16
 * code-unit order of reading path-order-utf16 (another faithful reading of "lexicographic path order",
 * 2.2 / 4.1) and the inconsistent order of a fault. Views are built once per container and order.
 */
import { indexContainer, type Container, type StoredObject } from './data.ts';

export type KeyOrder = (a: Buffer, b: Buffer) => number;

/** UTF-16 code-unit order: JavaScript's own string comparison (also Java's compareTo and C#'s ordinal order). */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const utf16KeyOrder: KeyOrder = (a, b) => compareUtf16(a.toString('utf8'), b.toString('utf8'));

/** Reading path-order-components: paths compared component by component (`/`-separated, bytes within), as pathlib sorts them. */
export const componentKeyOrder: KeyOrder = (a, b) => {
  const x = a.toString('utf8').split('/');
  const y = b.toString('utf8').split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = Buffer.compare(Buffer.from(x[i]!, 'utf8'), Buffer.from(y[i]!, 'utf8'));
    if (c !== 0) return c;
  }
  return x.length - y.length;
};

const views = new WeakMap<Container, Map<KeyOrder, Container>>();

/** The container's objects sorted by `order` (cached), with the indexes page() needs. */
export function orderedView(c: Container, order: KeyOrder): Container {
  let byOrder = views.get(c);
  if (!byOrder) views.set(c, (byOrder = new Map()));
  let view = byOrder.get(order);
  if (!view) {
    view = indexContainer([...c.objects].sort((x: StoredObject, y: StoredObject) => order(x.key, y.key)));
    byOrder.set(order, view);
  }
  return view;
}

/**
 * Fault files-order-inconsistent: code points compared as numbers, except that astral characters
 * (above U+FFFF) sort between the private-use area and the half-width forms. Each neighbouring pair
 * of the listing is then in UTF-8 order or in UTF-16 order, the whole in neither.
 */
export const inconsistentKeyOrder: KeyOrder = (a, b) => {
  const x = [...a.toString('utf8')].map(weight);
  const y = [...b.toString('utf8')].map(weight);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

function weight(ch: string): number {
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? 0xf900 + (cp - 0x10000) / 0x100000 : cp;
}
