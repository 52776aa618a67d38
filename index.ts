/**
 * The package's programmatic API: `import { runConformance } from 'conformance-suite'` runs the suite
 * and resolves to the typed report (the model of report.json).
 */
export { ConformanceRunError, runConformance, type ConformanceOptions, type ConformanceReport } from './cli/api.ts';
export { EXIT_CODE } from './reports/format.ts';
export type { RequirementResult, CheckResult, Verdict } from './reports/model.ts';
