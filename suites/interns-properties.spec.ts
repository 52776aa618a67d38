import { registerChecks } from '../core/playwright.ts';
import { internsPropertyChecks } from './checks/interns-properties.ts';

registerChecks(internsPropertyChecks);
