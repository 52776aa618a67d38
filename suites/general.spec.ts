import { registerChecks } from '../core/playwright.ts';
import { generalChecks } from './checks/general.ts';

registerChecks(generalChecks);
