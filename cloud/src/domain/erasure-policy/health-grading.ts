import { checkHealthRules, DEFAULT_HEALTH_GRADING, EDITABLE_METRICS, HEALTH_RULES_MAX, type EditableMetric, rulesToWire, type HealthGradingGranted, type WireHealthRule } from '@erasure/shared';

/**
 * An account's health grade rule table for resale and its SMART short self-test switch (issue 30
 * item 6): what its admins may save, what the web app shows, and what a device of the account is
 * sent with its erasure policy. Plain functions, no I/O.
 */

/** What the web app shows: the table in force, and whether it is the account's own or the default. */
export interface HealthGradingView extends HealthGradingGranted {
  source: 'account' | 'default';
}

/** The web app's form, sent with the view so the page carries no copy of the metrics: each in words, with its kind. */
export interface HealthGradingForm {
  metrics: readonly EditableMetric[];
}

export const viewOf = (stored: HealthGradingGranted | undefined): HealthGradingView => ({ ...(stored ?? DEFAULT_HEALTH_GRADING), source: stored ? 'account' : 'default' });
export const FORM: HealthGradingForm = { metrics: EDITABLE_METRICS };

const FIELDS = new Set(['metric', 'grade', 'at_least', 'at_most']);

/**
 * Checks an admin's save: `{rules: [{metric, grade, at_least | at_most}], smart_self_test}`. Every
 * threshold in its metric's range, one rule per metric and grade, worse grades asking for a worse
 * drive (checkHealthRules, the same check the agent makes). Errors name the rule by its metric.
 */
export function parseHealthGradingSave(body: unknown): { ok: true; value: HealthGradingGranted } | { ok: false; error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'send {"rules": [{"metric": "…", "grade": "B"|"C"|"F", "at_least": N}], "smart_self_test": true|false}' };
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => k !== 'rules' && k !== 'smart_self_test');
  if (unknown.length > 0) return { ok: false, error: `unknown field: ${unknown.join(', ')}` };
  if (typeof b.smart_self_test !== 'boolean') return { ok: false, error: 'smart_self_test must be true or false' };
  if (!Array.isArray(b.rules)) return { ok: false, error: 'rules must be a list' };
  if (b.rules.length > HEALTH_RULES_MAX) return { ok: false, error: `at most ${HEALTH_RULES_MAX} rules` };
  for (const [i, raw] of b.rules.entries()) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: `rule ${i + 1}: send {"metric": "…", "grade": "B"|"C"|"F", "at_least": N}` };
    const extra = Object.keys(raw).filter((k) => !FIELDS.has(k));
    if (extra.length > 0) return { ok: false, error: `rule ${i + 1}: unknown field: ${extra.join(', ')}` };
    const r = raw as Record<string, unknown>;
    for (const k of ['at_least', 'at_most']) {
      if (r[k] !== undefined && typeof r[k] !== 'number') return { ok: false, error: `rule ${i + 1}: ${k} must be a number` };
    }
  }
  const checked = checkHealthRules(b.rules as WireHealthRule[]);
  if (!checked.ok) return { ok: false, error: checked.error };
  // Stored as checked (and so in a canonical shape), never as sent.
  return { ok: true, value: { rules: rulesToWire(checked.rules), smart_self_test: b.smart_self_test } };
}
