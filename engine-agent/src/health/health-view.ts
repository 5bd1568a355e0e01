import type { DriveHealth, DriveHealthView, SelfTestOutcome, SmartHealth, ThroughputProfile } from '@erasure/shared';

function smartLine(s: SmartHealth): string {
  const parts: Array<string | undefined> = [
    s.passed === undefined ? undefined : s.passed ? 'health check passed' : 'health check FAILED',
    s.powerOnHours === undefined ? undefined : `${s.powerOnHours.toLocaleString('en-US')} h powered on`,
    s.percentageUsed === undefined ? undefined : `${s.percentageUsed}% endurance used`,
    s.reallocatedSectors === undefined ? undefined : `reallocated ${s.reallocatedSectors}`,
    s.pendingSectors === undefined ? undefined : `pending ${s.pendingSectors}`,
    s.offlineUncorrectable === undefined ? undefined : `uncorrectable ${s.offlineUncorrectable}`,
    s.crcErrors === undefined ? undefined : `CRC errors ${s.crcErrors}`,
    s.mediaErrors === undefined ? undefined : `media errors ${s.mediaErrors}`,
    s.criticalWarning === undefined ? undefined : `critical warning ${s.criticalWarning}`,
    s.grownDefects === undefined ? undefined : `grown defects ${s.grownDefects}`,
    s.uncorrectedErrors === undefined ? undefined : `uncorrected errors ${s.uncorrectedErrors}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

function speedLine(p: ThroughputProfile): string {
  const rates = p.mbps.filter((r): r is number => r !== null);
  if (rates.length === 0) return 'no region completed';
  const sorted = [...rates].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return `${sorted[0]}–${sorted.at(-1)} MB/s, median ${median} MB/s over ${rates.length} regions; ${p.ioErrors} write error(s)`;
}

/** The self-test's outcome in plain words (shared with the report's wording). */
export function selfTestWords(t: SelfTestOutcome): string {
  const detail = t.detail ? ` (${t.detail})` : '';
  if (t.outcome === 'passed') return 'passed';
  if (t.outcome === 'failed') return `FAILED${t.failingLba !== undefined ? ` at LBA ${t.failingLba}` : ''}${detail}`;
  if (t.outcome === 'timed_out') return `did not finish in time${detail}`;
  if (t.outcome === 'not_supported') return `not supported by this drive or its connection${detail}`;
  return `ended without a result${detail}`;
}

/** An erased drive's health as the kiosk shows it: grade and reasons in plain words, the numbers as label/value facts. */
export function healthView(h: DriveHealth): DriveHealthView {
  const { evidence: e, verdict: v } = h;
  const facts: Array<{ label: string; value: string } | undefined> = [
    e.before ? { label: 'SMART before', value: smartLine(e.before) } : undefined,
    e.after ? { label: 'SMART after', value: smartLine(e.after) } : undefined,
    e.smartUnavailable ? { label: 'SMART', value: e.smartUnavailable } : undefined,
    e.profile ? { label: 'Write speed', value: speedLine(e.profile) } : undefined,
    e.selfTest ? { label: 'SMART short self-test', value: selfTestWords(e.selfTest) } : undefined,
    v.note ? { label: 'Grade table', value: v.note } : undefined,
  ];
  return { grade: v.grade, label: v.label, reasons: v.reasons.map((r) => ({ grade: r.grade, text: r.text })), facts: facts.filter((f): f is { label: string; value: string } => f !== undefined && f.value !== '') };
}
