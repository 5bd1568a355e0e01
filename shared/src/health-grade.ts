import type { HealthEvidence, SmartHealth } from './health-evidence.js';

/**
 * A health grade for resale (issue 30 item 6): a pure function of the evidence and a rule table.
 * A: like new; B: used, good; C: worn, resell as such; F: do not resell. The grade is the worst
 * grade of the rules that match; each matching rule gives its reason in plain words. The grade
 * never changes whether the drive was erased: an F drive is still erased.
 */
export type HealthGrade = 'A' | 'B' | 'C' | 'F';

/** What a rule measures. Counters read after the erase when that read worked, else before. */
export type HealthMetric =
  | 'smart_failed'
  | 'self_test_failed'
  | 'critical_warning'
  | 'pending_sectors'
  | 'offline_uncorrectable'
  | 'reallocated_sectors'
  | 'media_errors'
  | 'grown_defects'
  | 'uncorrected_errors'
  | 'errors_rose_during_erase'
  | 'write_errors'
  | 'crc_errors'
  | 'percentage_used'
  | 'power_on_hours'
  | 'slowest_region_percent'
  | 'smart_unavailable';

/** One row of the table: the metric at least (or at most) the threshold gives the grade. */
export interface HealthRule {
  readonly metric: HealthMetric;
  readonly atLeast?: number;
  readonly atMost?: number;
  readonly grade: Exclude<HealthGrade, 'A'>;
}

/** A matched rule, in a buyer's words. */
export interface HealthReason {
  readonly metric: HealthMetric;
  readonly grade: Exclude<HealthGrade, 'A'>;
  /** What was seen, then the rule that fired with its threshold. */
  readonly text: string;
}

export interface HealthVerdict {
  readonly grade: HealthGrade;
  readonly label: string;
  readonly reasons: readonly HealthReason[];
  /** Which table graded, when it is not the one the account set (its table was refused): said before the reasons. */
  readonly note?: string;
}

/** A drive's health after its erase: what was seen, and the grade it gives. */
export interface DriveHealth {
  readonly evidence: HealthEvidence;
  readonly verdict: HealthVerdict;
}

export const GRADE_LABELS: Readonly<Record<HealthGrade, string>> = {
  A: 'like new',
  B: 'used, good',
  C: 'worn',
  F: 'do not resell',
};

/**
 * The default table (docs/refurbisher.md, "Health grade for resale", prints it; keep the two in step). Thresholds follow
 * the usual refurbisher practice: any sector the drive could not rewrite, any warning the drive
 * raises itself, or any write error during the erase rules out resale; wear and age grade down.
 */
export const DEFAULT_HEALTH_RULES: readonly HealthRule[] = [
  { metric: 'smart_failed', atLeast: 1, grade: 'F' },
  { metric: 'self_test_failed', atLeast: 1, grade: 'F' },
  { metric: 'critical_warning', atLeast: 1, grade: 'F' },
  { metric: 'write_errors', atLeast: 1, grade: 'F' },
  { metric: 'pending_sectors', atLeast: 1, grade: 'F' },
  { metric: 'offline_uncorrectable', atLeast: 1, grade: 'F' },
  { metric: 'reallocated_sectors', atLeast: 100, grade: 'F' },
  { metric: 'percentage_used', atLeast: 100, grade: 'F' },
  { metric: 'errors_rose_during_erase', atLeast: 1, grade: 'F' },
  { metric: 'reallocated_sectors', atLeast: 1, grade: 'C' },
  { metric: 'media_errors', atLeast: 1, grade: 'C' },
  { metric: 'grown_defects', atLeast: 1, grade: 'C' },
  { metric: 'uncorrected_errors', atLeast: 1, grade: 'C' },
  { metric: 'percentage_used', atLeast: 80, grade: 'C' },
  { metric: 'power_on_hours', atLeast: 40_000, grade: 'C' },
  { metric: 'slowest_region_percent', atMost: 30, grade: 'C' },
  { metric: 'percentage_used', atLeast: 20, grade: 'B' },
  { metric: 'power_on_hours', atLeast: 10_000, grade: 'B' },
  { metric: 'crc_errors', atLeast: 1, grade: 'B' },
  { metric: 'smart_unavailable', atLeast: 1, grade: 'B' },
];

/** How a metric is measured, which bounds its thresholds and how the web app asks for them. */
export type MetricKind = 'flag' | 'count' | 'percent' | 'hours' | 'slow_percent';

export interface EditableMetric {
  readonly metric: HealthMetric;
  readonly kind: MetricKind;
  /** The metric in an admin's words ("reallocated sectors (ATA 5)"). */
  readonly words: string;
}

/** Every metric of the table, in the order the web app and the docs list them. */
export const EDITABLE_METRICS: readonly EditableMetric[] = [
  { metric: 'smart_failed', kind: 'flag', words: 'SMART health check failed' },
  { metric: 'self_test_failed', kind: 'flag', words: 'SMART short self-test failed' },
  { metric: 'critical_warning', kind: 'flag', words: 'NVMe critical warning set' },
  { metric: 'write_errors', kind: 'count', words: 'write errors during the erase' },
  { metric: 'errors_rose_during_erase', kind: 'flag', words: 'error counter rose during the erase' },
  { metric: 'pending_sectors', kind: 'count', words: 'pending sectors (ATA 197)' },
  { metric: 'offline_uncorrectable', kind: 'count', words: 'offline uncorrectable sectors (ATA 198)' },
  { metric: 'reallocated_sectors', kind: 'count', words: 'reallocated sectors (ATA 5)' },
  { metric: 'media_errors', kind: 'count', words: 'NVMe media errors' },
  { metric: 'grown_defects', kind: 'count', words: 'SAS grown defects' },
  { metric: 'uncorrected_errors', kind: 'count', words: 'SAS uncorrected errors' },
  { metric: 'crc_errors', kind: 'count', words: 'UDMA CRC errors (ATA 199)' },
  { metric: 'percentage_used', kind: 'percent', words: 'endurance used (%)' },
  { metric: 'power_on_hours', kind: 'hours', words: 'power-on hours' },
  { metric: 'slowest_region_percent', kind: 'slow_percent', words: "slowest zone's speed (% of the median)" },
  { metric: 'smart_unavailable', kind: 'flag', words: 'no SMART answer' },
];

/** Each kind's threshold bounds: a flag matches at 1; a slow zone at or under a percentage. */
export const KIND_BOUNDS: Readonly<Record<MetricKind, { min: number; max: number }>> = {
  flag: { min: 1, max: 1 },
  count: { min: 1, max: 2 ** 48 },
  percent: { min: 1, max: 255 },
  hours: { min: 1, max: 1_000_000 },
  slow_percent: { min: 1, max: 99 },
};

export const metricOf = (metric: string): EditableMetric | undefined => EDITABLE_METRICS.find((m) => m.metric === metric);

/** A rule in words, with its threshold: "reallocated sectors (ATA 5) ≥ 100 gives F". */
export function ruleWords(rule: HealthRule): string {
  const m = metricOf(rule.metric);
  const words = m?.words ?? rule.metric;
  if (m?.kind === 'flag') return `${words} gives ${rule.grade}`;
  const bound = rule.atMost !== undefined ? `≤ ${rule.atMost}` : `≥ ${(rule.atLeast ?? 0).toLocaleString('en-US')}`;
  return `${words} ${bound} gives ${rule.grade}`;
}

/** Regions in a row that make a slow zone (about 3 % of a drive profiled over 100 regions). */
const SLOW_RUN = 3;

/** The SMART counters whose rise between the two reads means the erase itself hit bad media. */
const RISING: readonly (keyof SmartHealth)[] = ['reallocatedSectors', 'pendingSectors', 'offlineUncorrectable', 'mediaErrors', 'grownDefects', 'uncorrectedErrors'];

const RISING_WORDS: Partial<Record<keyof SmartHealth, string>> = {
  reallocatedSectors: 'reallocated sectors',
  pendingSectors: 'pending sectors',
  offlineUncorrectable: 'uncorrectable sectors',
  mediaErrors: 'media errors',
  grownDefects: 'grown defects',
  uncorrectedErrors: 'uncorrected errors',
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A metric's value and the words that say it, or undefined when the evidence does not have it. */
function measure(metric: HealthMetric, e: HealthEvidence): { value: number; says: string } | undefined {
  const s: SmartHealth | undefined = e.after ?? e.before;
  const n = (v: number | undefined, says: (v: number) => string) => (v === undefined ? undefined : { value: v, says: says(v) });
  switch (metric) {
    case 'smart_failed':
      return s?.passed === undefined ? undefined : { value: s.passed ? 0 : 1, says: s.passed ? 'the drive passes its own SMART check' : 'the drive fails its own SMART health check' };
    case 'self_test_failed': {
      const t = e.selfTest;
      if (!t || (t.outcome !== 'passed' && t.outcome !== 'failed')) return undefined;
      return t.outcome === 'passed'
        ? { value: 0, says: 'the SMART short self-test passed' }
        : { value: 1, says: `the SMART short self-test failed${t.failingLba !== undefined ? ` at LBA ${t.failingLba}` : ''}` };
    }
    case 'critical_warning':
      return n(s?.criticalWarning, (v) => `the drive raises a critical warning (code ${v})`);
    case 'pending_sectors':
      return n(s?.pendingSectors, (v) => `${v} sector(s) the drive could not read are waiting to be replaced`);
    case 'offline_uncorrectable':
      return n(s?.offlineUncorrectable, (v) => `${v} sector(s) could not be corrected`);
    case 'reallocated_sectors':
      return n(s?.reallocatedSectors, (v) => `${v} worn-out sector(s) have been replaced by spares`);
    case 'media_errors':
      return n(s?.mediaErrors, (v) => `the drive has recorded ${v} data error(s) in its life`);
    case 'grown_defects':
      return n(s?.grownDefects, (v) => `${v} defect(s) grew on the medium since the factory`);
    case 'uncorrected_errors':
      return n(s?.uncorrectedErrors, (v) => `the drive has logged ${v} uncorrected read/write error(s)`);
    case 'errors_rose_during_erase': {
      if (!e.before || !e.after) return undefined;
      const rose = RISING.flatMap((key) => {
        const b = e.before?.[key];
        const a = e.after?.[key];
        return typeof a === 'number' && typeof b === 'number' && a > b ? [`${RISING_WORDS[key]} ${b} → ${a}`] : [];
      });
      return { value: rose.length, says: rose.length ? `errors grew while it was being erased (${rose.join(', ')})` : 'no error counter grew during the erase' };
    }
    case 'write_errors':
      return n(e.profile?.ioErrors, (v) => `${v} write(s) failed during the erase`);
    case 'crc_errors':
      return n(s?.crcErrors, (v) => `${v} transfer error(s) on the cable or connector (the medium itself is not at fault)`);
    case 'percentage_used':
      return n(s?.percentageUsed, (v) => `${v}% of its rated write endurance is used`);
    case 'power_on_hours':
      return n(s?.powerOnHours, (v) => `it has been powered on for ${v.toLocaleString('en-US')} hours (about ${Math.round(v / 876) / 10} years)`);
    case 'slowest_region_percent': {
      const rates = (e.profile?.mbps ?? []).filter((r): r is number => r !== null);
      // Too few regions to call one of them slow (a tiny drive, or a pass that stopped early).
      if (rates.length < 10) return undefined;
      const mid = median(rates);
      if (mid <= 0) return undefined;
      // A zone is SLOW_RUN regions in a row, rated by the fastest of them: one slow region is what
      // a busy host or a neighbour drive starting on the same controller makes (seen on a loaded
      // CI machine); a weak zone of the medium stays slow across its neighbours.
      let slowest = Number.POSITIVE_INFINITY;
      for (let i = 0; i + SLOW_RUN <= rates.length; i++) slowest = Math.min(slowest, Math.max(...rates.slice(i, i + SLOW_RUN)));
      const pct = Math.round((slowest / mid) * 100);
      return { value: pct, says: `its slowest zone (${SLOW_RUN} regions in a row) wrote at ${pct}% of its usual speed (${slowest} of ${Math.round(mid * 10) / 10} MB/s)` };
    }
    case 'smart_unavailable':
      return e.smartUnavailable === undefined && (e.before || e.after)
        ? { value: 0, says: 'SMART was read' }
        : { value: 1, says: `no SMART data (${e.smartUnavailable ?? 'not read'}): graded on the erase alone` };
  }
}

const ORDER: Readonly<Record<HealthGrade, number>> = { A: 0, B: 1, C: 2, F: 3 };

/** The grade of a drive from its evidence under `rules` (default: {@link DEFAULT_HEALTH_RULES}). */
export function gradeHealth(evidence: HealthEvidence, rules: readonly HealthRule[] = DEFAULT_HEALTH_RULES): HealthVerdict {
  const reasons: HealthReason[] = [];
  // Worst grade first, so a metric's one reason is the worst it reached whatever the table's order.
  for (const rule of [...rules].sort((a, b) => ORDER[b.grade] - ORDER[a.grade])) {
    const m = measure(rule.metric, evidence);
    if (!m) continue;
    const hit = (rule.atLeast === undefined || m.value >= rule.atLeast) && (rule.atMost === undefined || m.value <= rule.atMost);
    if (hit && !reasons.some((r) => r.metric === rule.metric)) reasons.push({ metric: rule.metric, grade: rule.grade, text: `${m.says} (rule: ${ruleWords(rule)})` });
  }
  const grade = reasons.reduce<HealthGrade>((g, r) => (ORDER[r.grade] > ORDER[g] ? r.grade : g), 'A');
  return { grade, label: GRADE_LABELS[grade], reasons: [...reasons].sort((a, b) => ORDER[b.grade] - ORDER[a.grade]) };
}
