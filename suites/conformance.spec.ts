import { registerChecks } from '../core/playwright-tests.ts';
import { ALL_CHECKS } from './checks/index.ts';

// Every declared check is one Playwright test of this file; --grep and --shard select among them.
registerChecks(ALL_CHECKS);
