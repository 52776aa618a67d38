import { registerChecks } from '../core/playwright.ts';
import { paginationChecks } from './checks/pagination.ts';
import { paginationPropertyChecks } from './checks/pagination-properties.ts';

registerChecks([...paginationChecks, ...paginationPropertyChecks]);
