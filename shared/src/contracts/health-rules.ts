import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_HEALTH_RULES, EDITABLE_METRICS, KIND_BOUNDS, metricOf, type HealthRule } from '../health-grade.js';

/**
 * An account's own health grade rule table (issue 30 item 6; beyond the spec): the thresholds of
 * the default table, changed by the account's admins in the web app, stored by the cloud and sent
 * to the device with the erasure policy (ErasurePolicyGranted.health_grading). Absent: the
 * documented default table, and no SMART self-test. No Node imports: the web app bundles it.
 */

// The metrics and their words live beside the grade (health-grade.ts); the web app reads them here.
export { EDITABLE_METRICS, KIND_BOUNDS, metricOf, ruleWords, type EditableMetric, type MetricKind } from '../health-grade.js';

const GRADED = ['B', 'C', 'F'] as const;
const RANK = { B: 1, C: 2, F: 3 } as const;

export const HEALTH_RULES_MAX = 64;

export const WireHealthRule = Type.Object(
  {
    metric: Type.Union(EDITABLE_METRICS.map((m) => Type.Literal(m.metric))),
    grade: Type.Union(GRADED.map((g) => Type.Literal(g))),
    /** The metric at or above this gives the grade (every kind but slow_percent). */
    at_least: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 48 })),
    /** The metric at or under this gives the grade (slow_percent only). */
    at_most: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  },
  { additionalProperties: false },
);
export type WireHealthRule = Static<typeof WireHealthRule>;

/** The account's grading, as the device gets it and as the cloud stores it. */
export const HealthGradingGranted = Type.Object(
  {
    rules: Type.Array(WireHealthRule, { maxItems: HEALTH_RULES_MAX }),
    /** Run `smartctl -t short` on each drive before its erase (the result is graded). */
    smart_self_test: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type HealthGradingGranted = Static<typeof HealthGradingGranted>;

export const rulesToWire = (rules: readonly HealthRule[]): WireHealthRule[] =>
  rules.map((r) => ({ metric: r.metric as WireHealthRule['metric'], grade: r.grade, ...(r.atLeast !== undefined ? { at_least: r.atLeast } : {}), ...(r.atMost !== undefined ? { at_most: r.atMost } : {}) }));

/** The default table on the wire (the web app's "Reset to default"). */
export const DEFAULT_HEALTH_GRADING: HealthGradingGranted = { rules: rulesToWire(DEFAULT_HEALTH_RULES), smart_self_test: false };

/**
 * Checks a table for what the schema cannot say, and turns it into rules: each threshold in its
 * kind's range and on the right side (at most for a slow zone, at least otherwise), one rule per
 * metric and grade, and worse grades asking for more (a higher count, a lower slow-zone speed).
 * Used by the cloud before it stores a table and by the agent before it grades with one.
 */
export function checkHealthRules(input: readonly WireHealthRule[]): { ok: true; rules: HealthRule[] } | { ok: false; error: string } {
  const rules: HealthRule[] = [];
  for (const [i, r] of input.entries()) {
    const m = metricOf(r.metric);
    if (!m) return { ok: false, error: `rule ${i + 1}: unknown metric ${String(r.metric)}` };
    if (!(GRADED as readonly string[]).includes(r.grade)) return { ok: false, error: `rule ${i + 1} (${m.words}): grade must be B, C or F` };
    const slow = m.kind === 'slow_percent';
    const value = slow ? r.at_most : r.at_least;
    if ((slow ? r.at_least : r.at_most) !== undefined || value === undefined) {
      return { ok: false, error: `rule ${i + 1} (${m.words}): give ${slow ? 'at_most' : 'at_least'} only` };
    }
    const { min, max } = KIND_BOUNDS[m.kind];
    if (!Number.isInteger(value) || value < min || value > max) {
      return { ok: false, error: `rule ${i + 1} (${m.words}): the threshold must be a whole number from ${min} to ${max.toLocaleString('en-US')}, not ${value}` };
    }
    if (rules.some((x) => x.metric === r.metric && x.grade === r.grade)) return { ok: false, error: `${m.words} has two ${r.grade} rules; keep one` };
    rules.push(slow ? { metric: r.metric, atMost: value, grade: r.grade } : { metric: r.metric, atLeast: value, grade: r.grade });
  }
  for (const m of EDITABLE_METRICS) {
    const own = rules.filter((r) => r.metric === m.metric).sort((a, b) => RANK[a.grade] - RANK[b.grade]);
    for (let i = 1; i < own.length; i++) {
      const better = own[i - 1] as HealthRule;
      const worse = own[i] as HealthRule;
      const ordered = m.kind === 'slow_percent' ? (worse.atMost as number) < (better.atMost as number) : (worse.atLeast as number) > (better.atLeast as number);
      if (!ordered) {
        const dir = m.kind === 'slow_percent' ? 'lower' : 'higher';
        return { ok: false, error: `${m.words}: the ${worse.grade} threshold must be ${dir} than the ${better.grade} threshold (a worse grade needs a worse drive)` };
      }
    }
  }
  return { ok: true, rules };
}
