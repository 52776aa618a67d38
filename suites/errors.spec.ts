import { registerChecks } from '../core/playwright.ts';
import { errorsChecks } from './checks/errors.ts';

registerChecks(errorsChecks);
