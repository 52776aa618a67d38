import { registerChecks } from '../core/playwright.ts';
import { modelEndpointsChecks } from './checks/model-endpoints.ts';

registerChecks(modelEndpointsChecks);
