import { expect, test } from '@playwright/test';
import type { FaultDeclaration } from '../reference/faults/index.ts';
import type { ConformantVariant } from '../reference/variants.ts';
import type { ConformanceReport, RequirementResult } from '../reports/model.ts';
import { faultProblem, judgeFault, variantProblems } from './support/exactness.ts';

// What "caught" and "conformant" mean in the self-test (test/support/exactness.ts), on reports made
// by hand: each way a fault or a variant can fall short is named in the message the self-test prints.

function req(
  id: string,
  status: RequirementResult['status'],
  reason?: string,
  level: RequirementResult['level'] = 'MUST',
): RequirementResult {
  return {
    id,
    level,
    section: '4.1',
    operation: 'listContainerFiles',
    statement: id,
    status,
    checks: [`check.${id}`],
    ...(reason ? { reason } : {}),
  };
}

function report(verdict: ConformanceReport['verdict'], requirements: RequirementResult[]): ConformanceReport {
  return { verdict, requirements, run: {} } as unknown as ConformanceReport;
}

const fault = (more: Partial<FaultDeclaration> = {}): FaultDeclaration => ({
  name: 'some-fault',
  operation: 'listContainerFiles',
  breaks: ['a', 'b'],
  description: 'd',
  ...more,
});

test('a fault is caught only when every requirement it names fails and no other one', () => {
  expect(
    judgeFault(
      fault(),
      report('non-conformant', [req('a', 'fail', 'x: a broke'), req('b', 'fail', 'x: b broke'), req('c', 'pass')]),
    ).caught,
  ).toBe(true);
  // One named requirement left "not reached": the fault is not shown to break it.
  const notReached = judgeFault(
    fault(),
    report('non-conformant', [req('a', 'fail', 'x: a broke'), req('b', 'skip', 'not reached: x failed first on a')]),
  );
  expect(notReached.caught).toBe(false);
  expect(faultProblem(fault(), notReached, 1234)).toContain(
    'b (MUST) skip: not reached: x failed first on a [checks: check.b]',
  );
  // Another requirement failed, undeclared: its check and message are in the message.
  const extra = judgeFault(
    fault(),
    report('non-conformant', [
      req('a', 'fail'),
      req('b', 'fail'),
      req('c', 'fail', 'check.c: the listing resumes elsewhere', 'SHOULD'),
    ]),
  );
  expect(extra.caught).toBe(false);
  expect(faultProblem(fault(), extra, 1234)).toMatch(
    /failed but not named[\s\S]*c \(SHOULD\) fail: check\.c: the listing resumes elsewhere[\s\S]*alsoFails/,
  );
  // Declared with its reason, the same run is caught; a declaration that does not fail is stale.
  expect(
    judgeFault(
      fault({ alsoFails: [{ id: 'c', why: 'w' }] }),
      report('non-conformant', [req('a', 'fail'), req('b', 'fail'), req('c', 'fail')]),
    ).caught,
  ).toBe(true);
  const stale = judgeFault(
    fault({ alsoFails: [{ id: 'c', why: 'w' }] }),
    report('non-conformant', [req('a', 'fail'), req('b', 'fail'), req('c', 'pass')]),
  );
  expect(stale.caught).toBe(false);
  expect(faultProblem(fault(), stale, 1234)).toContain('declared in alsoFails but not failed');
  // Every requirement failing is not enough when the verdict is not NON-CONFORMANT (a SHOULD under --fail-on must).
  expect(judgeFault(fault(), report('conformant', [req('a', 'fail'), req('b', 'fail')])).caught).toBe(false);
});

test('a variant is conformant only with every MUST judged, or declared unjudged with why', () => {
  const variant = (more: Partial<ConformantVariant> = {}): ConformantVariant => ({
    name: 'v',
    description: 'd',
    options: {},
    ...more,
  });
  expect(
    variantProblems(variant(), report('conformant', [req('a', 'pass'), req('s', 'skip', 'nothing', 'SHOULD')])),
  ).toEqual([]);
  for (const status of ['skip', 'error', 'disabled'] as const) {
    expect(
      variantProblems(variant(), report('conformant', [req('a', status, 'not reached: x failed first on b')])),
    ).toEqual([expect.stringContaining(`a ${status}: not reached`)]);
  }
  expect(
    variantProblems(variant({ unjudged: [{ id: 'a', why: 'w' }] }), report('conformant', [req('a', 'skip', 'r')])),
  ).toEqual([]);
  // A failure is never excused, and a declaration of a MUST that is judged is stale.
  expect(
    variantProblems(
      variant({ unjudged: [{ id: 'a', why: 'w' }] }),
      report('non-conformant', [req('a', 'fail', 'x: broke')]),
    ),
  ).toEqual(['a fail: x: broke', 'verdict non-conformant']);
  expect(
    variantProblems(variant({ unjudged: [{ id: 'a', why: 'w' }] }), report('conformant', [req('a', 'pass')])),
  ).toEqual([expect.stringContaining('declared unjudged but passed')]);
});
