import { registerChecks } from '../core/playwright.ts';
import { containerFilesChecks } from './checks/container-files.ts';

registerChecks(containerFilesChecks);
