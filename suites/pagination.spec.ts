import { registerChecks } from '../core/playwright.ts';
import { paginationChecks } from './checks/pagination.ts';

registerChecks(paginationChecks);
