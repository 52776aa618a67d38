export { validLimit, type ValidLimitConstraints } from './valid-limit.ts';
export { invalidLimit, type InvalidLimit, type InvalidLimitConstraints } from './invalid-limit.ts';
export { filePath, type FilePathConstraints } from './file-path.ts';
export { pathAround, type PathPosition } from './path-around.ts';
export { malformedCursor } from './malformed-cursor.ts';
export {
  statusSubset,
  invalidStatusFilter,
  INTERN_STATES,
  type InternState,
  type StatusSubsetConstraints,
} from './interns-status.ts';
export { malformedAuthorization } from './malformed-authorization.ts';
