import { registerChecks } from '../core/playwright.ts';
import { internsChecks } from './checks/interns.ts';

registerChecks(internsChecks);
