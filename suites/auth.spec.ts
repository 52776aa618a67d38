import { registerChecks } from '../core/playwright.ts';
import { authChecksAll } from './checks/auth.ts';

registerChecks(authChecksAll);
