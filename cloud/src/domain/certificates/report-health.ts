import type { WireDriveHealth, WireSmartSummary } from '@erasure/shared';
import type { MessageKey } from './i18n/en.js';
import { ENGLISH, type Wording } from './i18n/wording.js';
import { drawSectionHeading, drawTable } from './layout-blocks.js';
import { ACCENT, currentPage, drawParagraph, drawText, ensureSpace, MUTED, RULE, textWidth, type Frame, type Rgb, type TextStyle } from './layout.js';

/*
 * The Erasure Report's "Health for resale" section (issue 30 item 6): the grade in plain words,
 * each matching rule's reason, the SMART counters the grade reads before and after the erase, and
 * the overwrite's speed over the drive as a small bar chart. Drawn only for a wipe result that
 * carries health: an older agent's report reads as it always did.
 */

const BODY: TextStyle = { role: 'regular', size: 9.5 };
const SMALL: TextStyle = { role: 'regular', size: 7, color: MUTED };
const GRADE: TextStyle = { role: 'bold', size: 13 };
const CHART_HEIGHT = 80;
const BAR: Rgb = [0.29, 0.47, 0.7];
const SLOW_BAR: Rgb = [0.8, 0.33, 0.2];

/** The grade as a buyer reads it: "Grade C: worn" (the labels of shared GRADE_LABELS, in the page's language). */
export const gradeWords = (grade: WireDriveHealth['grade'], w: Wording = ENGLISH) => w.t('health.grade', { grade, label: w.t(`health.grade.${grade}`) });

/** The graded SMART attributes, in the order the table prints them; labels are `health.smart.<key>`. */
type SmartLabelled<K = MessageKey> = K extends `health.smart.${infer S}` ? S : never;
type GradedSmartKey = Extract<keyof WireSmartSummary, SmartLabelled>;
const SMART_KEYS: readonly GradedSmartKey[] = [
  'passed',
  'reallocated_sectors',
  'pending_sectors',
  'offline_uncorrectable',
  'crc_errors',
  'power_on_hours',
  'percentage_used',
  'media_errors',
  'critical_warning',
  'grown_defects',
  'uncorrected_errors',
];

const smartValue = (v: WireSmartSummary[keyof WireSmartSummary] | undefined, w: Wording) =>
  v === undefined ? '—' : typeof v === 'boolean' ? w.t(v ? 'health.passed' : 'health.failed') : typeof v === 'number' ? w.number(v, 3) : v;

/** `[attribute, before, after]` for each graded SMART attribute either read reported. */
export function healthSmartRows(health: WireDriveHealth, w: Wording = ENGLISH): string[][] {
  const { smart_before: b, smart_after: a } = health;
  return SMART_KEYS.filter((key) => b?.[key] !== undefined || a?.[key] !== undefined).map((key) => [w.t(`health.smart.${key}`), smartValue(b?.[key], w), smartValue(a?.[key], w)]);
}

const rates = (health: WireDriveHealth) => (health.profile_mbps ?? []).filter((r): r is number => r !== null);

/** The SMART short self-test in a buyer's words (issue 30 item 6), or undefined when none was run. */
export function selfTestSentence(health: WireDriveHealth, w: Wording = ENGLISH): string | undefined {
  const t = health.self_test;
  if (!t) return undefined;
  const detail = t.detail ? ` (${t.detail})` : '';
  const said =
    t.outcome === 'passed'
      ? w.t('health.selfTest.passed', { detail })
      : t.outcome === 'failed'
        ? w.t('health.selfTest.failed', { lba: t.failing_lba !== undefined ? w.t('health.selfTest.failedAt', { lba: t.failing_lba }) : '', detail })
        : t.outcome === 'timed_out'
          ? w.t('health.selfTest.timedOut', { detail })
          : t.outcome === 'not_supported'
            ? w.t('health.selfTest.notSupported', { detail })
            : w.t('health.selfTest.noResult', { detail });
  return w.t('health.selfTest', { outcome: said });
}

/** One sentence under the chart: regions, their size, median and slowest rate, write errors. */
export function profileCaption(health: WireDriveHealth, w: Wording = ENGLISH): string {
  const all = rates(health);
  if (all.length === 0) return w.t('health.noProfile');
  const sorted = [...all].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  // The region size in GB with one decimal under 10 GB, as English always printed it (no grouping).
  const gb = health.region_bytes ? health.region_bytes / 1e9 : 0;
  const sizeText = w.language === 'en' ? gb.toFixed(gb >= 10 ? 0 : 1) : w.number(Number(gb.toFixed(gb >= 10 ? 0 : 1)), 1);
  const size = health.region_bytes ? w.t('health.regionSize', { size: sizeText }) : '';
  const errors = w.t('health.errors', { errors: health.io_errors ?? 0, retries: health.retries ?? 0 });
  const rate = (r: number) => (w.language === 'en' ? String(r) : w.number(r, 1));
  return w.t('health.profile', { regions: health.profile_mbps?.length ?? 0, size, median: rate(median), slowest: rate(sorted[0] as number), errors });
}

/** Bars of the per-region rate; regions under 30 % of the median (the slow-zone threshold) in red. */
function drawSpeedChart(frame: Frame, health: WireDriveHealth, w: Wording): void {
  const mbps = health.profile_mbps ?? [];
  const all = rates(health);
  if (all.length === 0) return;
  ensureSpace(frame, CHART_HEIGHT + 24);
  const max = Math.max(...all);
  const top = Math.ceil(max / 50) * 50 || 1;
  const sorted = [...all].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const axisLabel = `${top} MB/s`;
  const left = frame.left + textWidth(frame.fonts, axisLabel, SMALL) + 6;
  const width = frame.right - left;
  const bottom = frame.y - CHART_HEIGHT;
  const page = currentPage(frame);
  page.push({ kind: 'rect', x: left, y: bottom, width, height: CHART_HEIGHT, stroke: RULE, lineWidth: 0.5 });
  const slot = width / mbps.length;
  const bar = (slow: boolean) =>
    mbps.flatMap((r, i) => (r === null || r < median * 0.3 !== slow ? [] : [[left + i * slot + slot * 0.1, bottom, slot * 0.8, (r / top) * CHART_HEIGHT] as const]));
  page.push({ kind: 'rects', fill: BAR, rects: bar(false) });
  const slowBars = bar(true);
  if (slowBars.length) page.push({ kind: 'rects', fill: SLOW_BAR, rects: slowBars });
  const medianY = bottom + (median / top) * CHART_HEIGHT;
  page.push({ kind: 'line', x1: left, y1: medianY, x2: frame.right, y2: medianY, color: ACCENT, width: 0.4 });
  drawText(frame, axisLabel, SMALL, frame.left, frame.y);
  drawText(frame, '0', SMALL, left - 4 - textWidth(frame.fonts, '0', SMALL), bottom + 8);
  frame.y = bottom - 2;
  drawText(frame, w.t('health.startOfDrive'), SMALL, left, frame.y);
  const end = w.t('health.endOfDrive');
  drawText(frame, end, SMALL, frame.right - textWidth(frame.fonts, end, SMALL), frame.y);
  frame.y -= 12;
}

export function drawHealthSection(frame: Frame, health: WireDriveHealth | undefined, w: Wording = ENGLISH): void {
  if (!health) return;
  drawSectionHeading(frame, w.t('health.title'), 60);
  drawText(frame, gradeWords(health.grade, w), GRADE, frame.left, frame.y);
  frame.y -= 19;
  drawParagraph(frame, w.t('health.explain'), { ...BODY, color: MUTED });
  frame.y -= 4;
  if (health.reasons.length === 0) drawParagraph(frame, w.t('health.noRule'), BODY);
  // The reasons are the grading table's own sentences, recorded by the device: printed as sent.
  for (const reason of health.reasons) drawParagraph(frame, `•  ${reason}`, BODY, frame.left + 6);
  if (health.smart_unavailable) drawParagraph(frame, w.t('health.smartUnavailable', { reason: health.smart_unavailable }), BODY);
  const selfTest = selfTestSentence(health, w);
  if (selfTest) {
    frame.y -= 2;
    drawParagraph(frame, selfTest, { ...BODY, role: 'bold' });
  }
  frame.y -= 6;
  const smart = healthSmartRows(health, w);
  if (smart.length) drawTable(frame, [{ header: w.t('health.attribute'), width: 0.4, bold: true }, { header: w.t('health.before'), width: 0.3 }, { header: w.t('health.after'), width: 0.3 }], smart);
  drawSpeedChart(frame, health, w);
  drawParagraph(frame, profileCaption(health, w), { ...BODY, size: 8.5 });
  frame.y -= 10;
}
