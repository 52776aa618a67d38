import fc from 'fast-check';
import { filePath } from './file-path.ts';

/**
 * `after` values that are not container file ids (2.1, 4.1): a wrong or missing prefix, the standard
 * base64 alphabet, an impossible length, characters outside base64url. Values a lenient decoder may
 * fairly accept (non-canonical trailing bits, "=" padding, the empty path) are left out.
 */
export function malformedCursor(): fc.Arbitrary<string> {
  // 2.1: the part after `cfile_` is the base64url encoding of a path.
  const body = filePath({ maxLength: 12 }).map((p) => Buffer.from(p, 'utf8').toString('base64url'));
  return fc.oneof(
    body.map((b) => b || 'YQ'),
    body.map((b) => `file_${b || 'YQ'}`),
    body.map((b) => `CFILE_${b || 'YQ'}`),
    fc.constantFrom(
      'cfile_a+b/',
      'cfile_++++',
      'cfile_////',
      'cfile_Zm9v+w',
      'cfile_A',
      'cfile_AAAAA',
      'cfile_!!',
      'cfile_a.b',
      'cfile_a b',
      'cfile_a~b',
      'cfile_%41%42',
    ),
    body.filter((b) => b.length > 0).map((b) => `cfile_${b}*`),
  );
}
