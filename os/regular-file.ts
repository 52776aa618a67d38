/**
 * Reading a small input file with bounded time and memory (rule "Hostile input"): a path given on the command
 * line can be a FIFO (an open would wait for a writer forever), a device (/dev/zero never ends), a
 * directory or a file of any size. Only a regular file of at most `maxBytes` is read, and never more
 * than `maxBytes + 1` bytes of it (a file can grow after it was inspected; /proc files report size 0).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why the file cannot be used, to follow `<the file>: ` in a message. */
export class FileReadError extends Error {
  override readonly name = 'FileReadError';
}

export function readRegularFile(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw new FileReadError(`cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileReadError(`not a regular file (it is ${kindOf(st)})`);
    if (st.size > maxBytes) throw new FileReadError(tooLarge(maxBytes));
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new FileReadError(tooLarge(maxBytes));
    }
    return buffer.subarray(0, length);
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError(`cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(maxBytes: number): string {
  return `larger than the limit of ${maxBytes} bytes`;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}
