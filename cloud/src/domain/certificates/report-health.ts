import { GRADE_LABELS, type WireDriveHealth, type WireSmartSummary } from '@erasure/shared';
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

/** The grade as a buyer reads it: "C: worn". */
export const gradeWords = (grade: WireDriveHealth['grade']) => `${grade}: ${GRADE_LABELS[grade]}`;

const SMART_LABELS: readonly [keyof WireSmartSummary, string][] = [
  ['passed', 'Overall SMART check'],
  ['reallocated_sectors', 'Reallocated sectors'],
  ['pending_sectors', 'Pending sectors'],
  ['offline_uncorrectable', 'Uncorrectable sectors'],
  ['crc_errors', 'Cable / link (CRC) errors'],
  ['power_on_hours', 'Power-on hours'],
  ['percentage_used', 'Endurance used (%)'],
  ['media_errors', 'Media errors'],
  ['critical_warning', 'Critical warning'],
  ['grown_defects', 'Grown defects'],
  ['uncorrected_errors', 'Uncorrected errors'],
];

const smartValue = (v: WireSmartSummary[keyof WireSmartSummary] | undefined) =>
  v === undefined ? '—' : typeof v === 'boolean' ? (v ? 'passed' : 'FAILED') : typeof v === 'number' ? v.toLocaleString('en-US') : v;

/** `[attribute, before, after]` for each graded SMART attribute either read reported. */
export function healthSmartRows(health: WireDriveHealth): string[][] {
  const { smart_before: b, smart_after: a } = health;
  return SMART_LABELS.filter(([key]) => b?.[key] !== undefined || a?.[key] !== undefined).map(([key, label]) => [label, smartValue(b?.[key]), smartValue(a?.[key])]);
}

const rates = (health: WireDriveHealth) => (health.profile_mbps ?? []).filter((r): r is number => r !== null);

/** The SMART short self-test in a buyer's words (issue 30 item 6), or undefined when none was run. */
export function selfTestSentence(health: WireDriveHealth): string | undefined {
  const t = health.self_test;
  if (!t) return undefined;
  const detail = t.detail ? ` (${t.detail})` : '';
  const said =
    t.outcome === 'passed'
      ? `passed${detail}`
      : t.outcome === 'failed'
        ? `FAILED${t.failing_lba !== undefined ? ` at LBA ${t.failing_lba}` : ''}${detail}`
        : t.outcome === 'timed_out'
          ? `did not finish in time, and was not graded${detail}`
          : t.outcome === 'not_supported'
            ? `not supported by the drive or its connection, and not graded${detail}`
            : `ended without a result, and was not graded${detail}`;
  return `SMART short self-test, run before the erase: ${said}.`;
}

/** One sentence under the chart: regions, their size, median and slowest rate, write errors. */
export function profileCaption(health: WireDriveHealth): string {
  const all = rates(health);
  if (all.length === 0) return 'No write-speed profile was recorded (a firmware erase writes nothing itself).';
  const sorted = [...all].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const size = health.region_bytes ? ` of about ${(health.region_bytes / 1e9).toFixed(health.region_bytes >= 1e10 ? 0 : 1)} GB each` : '';
  const errors = `${health.io_errors ?? 0} write error(s), ${health.retries ?? 0} retried write(s)`;
  return `Write speed over ${health.profile_mbps?.length ?? 0} regions${size}, start to end of the drive: median ${median} MB/s (the line), slowest ${sorted[0]} MB/s; ${errors}. Red bars: regions under 30% of the median.`;
}

/** Bars of the per-region rate; regions under 30 % of the median (the slow-zone threshold) in red. */
function drawSpeedChart(frame: Frame, health: WireDriveHealth): void {
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
  drawText(frame, 'start of drive', SMALL, left, frame.y);
  const end = 'end of drive';
  drawText(frame, end, SMALL, frame.right - textWidth(frame.fonts, end, SMALL), frame.y);
  frame.y -= 12;
}

export function drawHealthSection(frame: Frame, health: WireDriveHealth | undefined): void {
  if (!health) return;
  drawSectionHeading(frame, 'Health for resale', 60);
  drawText(frame, `Grade ${gradeWords(health.grade)}`, GRADE, frame.left, frame.y);
  frame.y -= 19;
  drawParagraph(frame, 'The grade says whether the drive is worth reselling, from its SMART data and how it behaved while it was written. It never changes whether the drive was erased.', { ...BODY, color: MUTED });
  frame.y -= 4;
  if (health.reasons.length === 0) drawParagraph(frame, 'No rule of the grading table matched.', BODY);
  for (const reason of health.reasons) drawParagraph(frame, `•  ${reason}`, BODY, frame.left + 6);
  if (health.smart_unavailable) drawParagraph(frame, `SMART could not be read: ${health.smart_unavailable}`, BODY);
  const selfTest = selfTestSentence(health);
  if (selfTest) {
    frame.y -= 2;
    drawParagraph(frame, selfTest, { ...BODY, role: 'bold' });
  }
  frame.y -= 6;
  const smart = healthSmartRows(health);
  if (smart.length) drawTable(frame, [{ header: 'SMART attribute', width: 0.4, bold: true }, { header: 'Before the erase', width: 0.3 }, { header: 'After the erase', width: 0.3 }], smart);
  drawSpeedChart(frame, health);
  drawParagraph(frame, profileCaption(health), { ...BODY, size: 8.5 });
  frame.y -= 10;
}
