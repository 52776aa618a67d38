/** The client's name for the one mask (core/mask.ts): every evidence string is redacted by it. */
export { Mask as Redactor, type Secret } from './mask.ts';
