import { CHECK_LIST_ENV, registerChecks, type CheckListing } from '../playwright/playwright-tests.ts';

// Every declared check is one Playwright test of this file; --grep and --shard select among them.
// In a run, the runner's global set-up has listed the checks (CONFORMANCE_CHECK_LIST), so a worker
// registers the tests without loading the check modules; `playwright test --list` loads them.
const listed = process.env[CHECK_LIST_ENV];
registerChecks(
  listed
    ? (JSON.parse(listed) as CheckListing[])
    : (await import('./check-locations.ts')).locatedListing(
        (await import('../core/check/check-listing.ts')).listingOf((await import('./checks/index.ts')).ALL_CHECKS),
      ),
);
