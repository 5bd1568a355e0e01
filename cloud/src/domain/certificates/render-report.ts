import { stationBayOf } from '@erasure/shared';
import { REV1_LAYOUT_SCHEMAS, signatureFingerprint } from './certificate-content.js';
import type { FontSource } from './fonts.js';
import { formatBytes, formatCapacityWithBytes, formatDuration, formatTimestamp, formatUnknown } from './format.js';
import { driveVendor } from '../wipes/vendor.js';
import { drawFieldGrid, drawSectionHeading, drawTable } from './layout-blocks.js';
import {
  ACCENT,
  createFrame,
  drawParagraph,
  drawText,
  MUTED,
  RULE,
  textOp,
  textWidth,
  type Frame,
  type TextStyle,
} from './layout.js';
import { paintDocument } from './pdf-document.js';
import type { PdfSigner } from './pdf-signing-certificate.js';
import { drawHealthSection } from './report-health.js';
import type { Branding } from '../branding/branding.js';
import { brandingBlockHeight, drawBrandingBlock } from './branding-block.js';
import { wordingFor, type Language, type Wording } from './i18n/wording.js';
import { standardAndLevel as standardAndLevelIn, validationWords } from './rev2-record.js';
import {
  erasedDriveBytes,
  erasedDriveEntry,
  smartRows,
  storageRows,
  testRows,
  wipeRecordRows,
  type ErasureReportData,
} from './report-data.js';

/** What the report renderer needs besides the data. */
export interface ReportRenderDeps {
  readonly fonts: FontSource;
  /** Signs the PDF file itself (PAdES), as PDF readers check it. */
  readonly pdfSigner: PdfSigner;
  /** The issuing account's logo and company details (issue 31 item 7), above the title. */
  readonly branding?: Branding | null;
  /** The language the report is written in (issue 31 item 7 part B); default English. */
  readonly language?: Language;
}

const MARGIN = { top: 40, bottom: 44, side: 50 };
const SMALL: TextStyle = { role: 'regular', size: 7, color: MUTED };
const BODY: TextStyle = { role: 'regular', size: 9.5 };

/**
 * Renders the Erasure Report: the full record behind a certificate, across as many A4 pages as
 * it needs, with a running header and "page n of N" on each. It carries the same signed
 * attachment as the certificate, so either document alone verifies offline.
 */
export async function renderErasureReportPdf(report: ErasureReportData, deps: ReportRenderDeps): Promise<Uint8Array> {
  const { certificate: c } = report;
  // A v1-v3 record's report keeps the English words it was issued with, as its certificate does.
  const w = wordingFor(REV1_LAYOUT_SCHEMAS.includes(c.schema) ? 'en' : (deps.language ?? 'en'));
  const frame = createFrame(deps.fonts, MARGIN, (f) => drawRunningHeader(f, c.certificate_number, w));
  const capacity = formatCapacityWithBytes(c.drive.capacity_gb, erasedDriveBytes(report.fingerprint, c.drive.serial), w);

  if (deps.branding) {
    drawBrandingBlock(frame, deps.branding, frame.left, frame.y, frame.right, { width: 110, height: 36 });
    frame.y -= brandingBlockHeight(36) + 14;
  }
  drawText(frame, w.t('report.title'), { role: 'bold', size: 22 }, frame.left, frame.y);
  frame.y -= 32;
  const subtitle = w.t('report.subtitle', { serial: c.drive.serial ?? w.t('report.withoutSerial'), number: c.certificate_number, account: c.account_name });
  drawParagraph(frame, subtitle, { role: 'regular', size: 10, color: MUTED });
  frame.y -= 10;

  // A v4 record speaks NIST SP 800-88 Rev. 2 / IEEE 2883 (issue 29); older ones keep their words.
  const rev2 = !REV1_LAYOUT_SCHEMAS.includes(c.schema);
  // Reports of v1-v3 records keep their Rev. 1 words, in English as they were issued.
  drawSectionHeading(frame, w.t('report.summary'));
  drawFieldGrid(frame, [
    { label: w.t('field.processedBy'), value: c.account_name, span: 2 },
    { label: w.t('field.operator'), value: c.operator, span: 2 },
    { label: w.t('field.customer'), value: c.customer ?? null, span: 2 },
    { label: w.t('field.lot'), value: c.lot_reference ?? null, span: 2 },
    // Drawn only for a v5 record that has one, so older reports redraw exactly as issued.
    ...(c.asset_tag ? [{ label: w.t('field.assetTag'), value: c.asset_tag, mono: true, span: 2 }] : []),
    { label: w.t('report.certificateNo'), value: c.certificate_number },
    { label: w.t('report.certificateId'), value: c.certificate_id, mono: true, span: 2 },
    { label: rev2 ? w.t('cert.band.level') : 'NIST 800-88 category', value: rev2 ? w.t('report.levelValue', { level: c.wipe.nist_category }) : c.wipe.nist_category },
    { label: w.t('report.driveManufacturer'), value: c.drive.manufacturer ?? driveVendor(c.drive.model) },
    { label: w.t('report.driveModel'), value: c.drive.model, span: 2 },
    { label: w.t('report.driveSerial'), value: c.drive.serial, mono: true },
    { label: w.t('field.capacity'), value: capacity, span: 2 },
    { label: w.t('field.method'), value: c.wipe.method, span: 2 },
    { label: rev2 ? w.t('cert.techniqueCommand') : w.t('field.technique'), value: c.wipe.technique, span: 2 },
    ...(rev2
      ? [
          { label: w.t('cert.standardAndLevel'), value: standardAndLevelIn(c.wipe, w), span: 4 },
          { label: w.t('cert.validation'), value: validationWords(c.validation_status, w), span: 4 },
        ]
      : []),
  ], 4, 3);
  frame.y -= 6;
  if (c.crypto_erase_evidence) {
    drawSectionHeading(frame, w.t('report.crypto'));
    drawFieldGrid(frame, [
      { label: w.t('report.cryptoCommand'), value: c.crypto_erase_evidence.command, mono: true, span: 4 },
      { label: w.t('report.cryptoReadback'), value: c.crypto_erase_evidence.marker_readback, span: 4 },
    ], 4, 6);
    frame.y -= 6;
  }

  drawSectionHeading(frame, w.t('report.timeline'));
  const started = c.wipe.started_at;
  drawTable(frame, [{ header: w.t('report.event'), width: 0.3, bold: true }, { header: w.t('report.time'), width: 0.35 }, { header: w.t('report.sinceStart'), width: 0.35 }], [
    [w.t('report.eraseStarted'), formatTimestamp(started, false, w) ?? '', started ? w.t('report.zeroDuration') : ''],
    [w.t('report.eraseCompleted'), formatTimestamp(c.wipe.completed_at, false, w) ?? '', formatDuration(started, c.wipe.completed_at) ?? ''],
    [w.t('report.certified'), formatTimestamp(c.signed_at, false, w) ?? '', formatDuration(started, c.signed_at) ?? ''],
  ]);

  drawSectionHeading(frame, rev2 ? w.t('report.verificationResult') : 'Verification result');
  drawParagraph(frame, c.verification.result?.trim() ? c.verification.result : w.t('report.noVerificationResult'), BODY);
  frame.y -= 10;

  drawHealthSection(frame, report.wipeResult.health, w);

  drawSectionHeading(frame, w.t('report.record'));
  const recordRows = wipeRecordRows(report.wipeResult, capacity, w);
  drawTable(
    frame,
    [{ header: w.t('report.field'), width: 0.3, bold: true }, { header: w.t('report.value'), width: 0.7 }],
    recordRows.map(([label, , value]) => [label, value]),
  );

  drawStationBay(frame, report, w);
  drawMachine(frame, report, w);

  drawSectionHeading(frame, w.t('report.tests'));
  drawTable(
    frame,
    [{ header: w.t('report.test'), width: 0.22, bold: true }, { header: w.t('report.status'), width: 0.18 }, { header: w.t('report.detail'), width: 0.6 }],
    testRows(report.tests, w),
  );

  drawSectionHeading(frame, w.t('report.notes'));
  drawParagraph(frame, report.notes?.trim() ? report.notes : w.t('report.noNotes'), BODY);
  frame.y -= 14;

  drawSectionHeading(frame, w.t('report.verification'), 70);
  drawParagraph(frame, w.t('report.accompanies', { number: c.certificate_number }), BODY);
  drawParagraph(frame, c.verify_url, { role: 'mono', size: 8.5, color: ACCENT });
  drawParagraph(frame, w.t('report.fingerprint', { fingerprint: signatureFingerprint(report.signature) }), { role: 'mono', size: 8.5 });
  frame.y -= 14;

  // Auditors matching the report to the wire record (spec section 2) need the field names;
  // a customer reading the report does not, so they sit at the end.
  drawSectionHeading(frame, w.t('report.appendix'), 70);
  drawParagraph(frame, w.t('report.appendixIntro'), BODY);
  frame.y -= 4;
  drawTable(
    frame,
    [{ header: w.t('report.field'), width: 0.4, bold: true }, { header: w.t('report.wireName'), width: 0.6, mono: true }],
    recordRows.map(([label, wire]) => [label, wire]),
  );

  drawPageNumbers(frame, c.certificate_number, c.certificate_id, w);
  return paintDocument(frame, c, report.signature, {
    title: `Erasure Report ${c.certificate_number}`,
    subject: `Erasure report for drive ${c.drive.serial ?? 'unknown serial'}`,
    keywords: [c.certificate_number, c.certificate_id, 'erasure report'],
  }, deps.pdfSigner, deps.branding);
}

/** Hotswap wipes: the bay the drive sat in and the chassis map that names it (from tool_components). */
function drawStationBay(frame: Frame, report: ErasureReportData, w: Wording): void {
  const where = stationBayOf(report.wipeResult.tool_components);
  if (!where) return;
  drawSectionHeading(frame, w.t('report.stationBay'));
  drawFieldGrid(frame, [
    { label: w.t('report.bay'), value: where.bay },
    { label: w.t('report.chassisMap'), value: where.chassis ?? null, span: 3 },
  ], 4, 3);
  frame.y -= 6;
}

function drawMachine(frame: Frame, report: ErasureReportData, w: Wording): void {
  const fp = report.fingerprint;
  const machine = report.certificate.source_machine;
  drawSectionHeading(frame, w.t('report.sourceMachine'));
  if (!fp && !machine) {
    drawParagraph(frame, w.t('report.noMachine'), BODY);
    frame.y -= 10;
    return;
  }
  const system = fp?.system;
  const cpu: Record<string, unknown> = { ...fp?.cpu };
  drawFieldGrid(frame, [
    { label: w.t('field.manufacturer'), value: system?.manufacturer ?? system?.vendor ?? machine?.manufacturer ?? null },
    { label: w.t('report.product'), value: system?.product ?? system?.model ?? machine?.model ?? null },
    { label: w.t('field.serial'), value: system?.serial ?? machine?.serial ?? null, mono: true },
    { label: w.t('field.assetId'), value: machine?.asset_id ?? null, mono: true },
    { label: w.t('report.systemUuid'), value: system?.uuid ?? null, mono: true, span: 2 },
    { label: w.t('report.cpu'), value: fp?.cpu?.model ?? null, span: 2 },
    { label: w.t('report.cpuCores'), value: [formatUnknown(cpu.cores, w), formatUnknown(cpu.threads, w)].filter(Boolean).join(' / ') || null },
    { label: w.t('report.memory'), value: formatBytes(fp?.memory?.total_bytes, w) },
    { label: w.t('report.assetTag'), value: system?.asset_tag ?? null },
  ], 4, 3);
  frame.y -= 6;

  drawSectionHeading(frame, w.t('report.storage'));
  const rows = storageRows(fp, report.certificate.drive.serial, w);
  if (rows.length === 0) drawParagraph(frame, w.t('report.noStorage'), BODY);
  else drawTable(frame, [{ header: w.t('field.model'), width: 0.32 }, { header: w.t('report.serial'), width: 0.28, mono: true }, { header: w.t('report.size'), width: 0.26 }, { header: w.t('report.type'), width: 0.14 }], rows);

  drawSectionHeading(frame, w.t('report.smart'));
  const smart = smartRows(erasedDriveEntry(fp, report.certificate.drive.serial), w);
  if (smart.length === 0) {
    drawParagraph(frame, w.t('report.noSmart'), BODY);
    frame.y -= 10;
  } else drawTable(frame, [{ header: w.t('report.attribute'), width: 0.45 }, { header: w.t('report.value'), width: 0.55 }], smart);
}

/** Small running header; returns where page content starts. */
function drawRunningHeader(frame: Frame, certificateNumber: string, w: Wording): number {
  const page = frame.pages[frame.pages.length - 1];
  page?.push({ kind: 'rect', x: 0, y: frame.height - 6, width: frame.width, height: 6, fill: ACCENT });
  const top = frame.top + 12;
  drawText(frame, w.t('report.runningHeader'), { role: 'bold', size: 7.5, color: ACCENT }, frame.left, top);
  const right = w.t('report.runningCertificate', { number: certificateNumber });
  drawText(frame, right, SMALL, frame.right - textWidth(frame.fonts, right, SMALL), top);
  page?.push({ kind: 'line', x1: frame.left, y1: top - 13, x2: frame.right, y2: top - 13, color: RULE, width: 0.5 });
  return top - 28;
}

/** Footers are drawn last, once the page count is known. */
function drawPageNumbers(frame: Frame, number: string, id: string, w: Wording): void {
  const total = frame.pages.length;
  const y = MARGIN.bottom - 18;
  frame.pages.forEach((page, i) => {
    page.push({ kind: 'line', x1: frame.left, y1: y + 11, x2: frame.right, y2: y + 11, color: RULE, width: 0.5 });
    page.push(textOp(frame.fonts, `${number} · ${id}`, SMALL, frame.left, y + 8).op);
    const label = w.t('report.page', { page: i + 1, total });
    page.push(textOp(frame.fonts, label, SMALL, frame.right - textWidth(frame.fonts, label, SMALL), y + 8).op);
  });
}

