import { checkHealthRules, DEFAULT_HEALTH_RULES, type HealthGradingGranted, type HealthRule } from '@erasure/shared';

/**
 * How the agent grades erased drives (issue 30 item 6): the account's own rule table from the
 * erasure policy answer, else the documented default table; and whether the SMART short self-test
 * runs before each erase. Plain functions, no I/O.
 *
 * A table the gateway passed (it is inside the contract) can still be garbled in ways the schema
 * cannot say (a C threshold under the B one, two F rules for one metric). Such a table is refused
 * whole: no rule of it grades anything. The drives are then graded by the documented default
 * table, and every grade says so in its first reason (`refused`), so a report never presents a
 * grade as the account's when it is not, and the evidence stays on record to grade again.
 */
export interface HealthGrading {
  readonly rules: readonly HealthRule[];
  readonly selfTest: boolean;
  /** Set when the account's table was refused: why, in words (the grade is then the default table's). */
  readonly refused?: string;
}

/** No table sent (an account that never set one, or an older cloud): the default, no self-test. */
export const DEFAULT_GRADING: HealthGrading = { rules: DEFAULT_HEALTH_RULES, selfTest: false };

export function gradingOf(granted: HealthGradingGranted | undefined): HealthGrading {
  if (!granted) return DEFAULT_GRADING;
  const checked = checkHealthRules(granted.rules);
  if (!checked.ok) return { rules: DEFAULT_HEALTH_RULES, selfTest: granted.smart_self_test, refused: checked.error };
  return { rules: checked.rules, selfTest: granted.smart_self_test };
}

/** The first reason of a grade made under the default table because the account's was refused. */
export const refusedNote = (why: string): string => `graded by the default table: the account's grade table was refused (${why})`;
