import { stationBayOf } from '@erasure/shared';
import { REV1_LAYOUT_SCHEMAS, signatureFingerprint } from './certificate-content.js';
import { standardAndLevel } from './rev2-record.js';
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
import { ASSET_TAG_LABEL } from './certificate-page-head.js';
import type { PdfSigner } from './pdf-signing-certificate.js';
import { drawHealthSection } from './report-health.js';
import type { Branding } from '../branding/branding.js';
import { brandingBlockHeight, drawBrandingBlock } from './branding-block.js';
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
  const frame = createFrame(deps.fonts, MARGIN, (f) => drawRunningHeader(f, c.certificate_number));
  const capacity = formatCapacityWithBytes(c.drive.capacity_gb, erasedDriveBytes(report.fingerprint, c.drive.serial));

  if (deps.branding) {
    drawBrandingBlock(frame, deps.branding, frame.left, frame.y, frame.right, { width: 110, height: 36 });
    frame.y -= brandingBlockHeight(36) + 14;
  }
  drawText(frame, 'Erasure Report', { role: 'bold', size: 22 }, frame.left, frame.y);
  frame.y -= 32;
  const subtitle = `Drive ${c.drive.serial ?? 'without serial'} · Certificate ${c.certificate_number} · processed by ${c.account_name}`;
  drawParagraph(frame, subtitle, { role: 'regular', size: 10, color: MUTED });
  frame.y -= 10;

  // A v4 record speaks NIST SP 800-88 Rev. 2 / IEEE 2883 (issue 29); older ones keep their words.
  const rev2 = !REV1_LAYOUT_SCHEMAS.includes(c.schema);
  drawSectionHeading(frame, 'Summary');
  drawFieldGrid(frame, [
    { label: 'Processed by', value: c.account_name, span: 2 },
    { label: 'Operator', value: c.operator, span: 2 },
    { label: 'Customer', value: c.customer ?? null, span: 2 },
    { label: 'Lot / job reference', value: c.lot_reference ?? null, span: 2 },
    // Drawn only for a v5 record that has one, so older reports redraw exactly as issued.
    ...(c.asset_tag ? [{ label: ASSET_TAG_LABEL, value: c.asset_tag, mono: true, span: 2 }] : []),
    { label: 'Certificate no.', value: c.certificate_number },
    { label: 'Certificate ID', value: c.certificate_id, mono: true, span: 2 },
    { label: rev2 ? 'Sanitization level' : 'NIST 800-88 category', value: rev2 ? `${c.wipe.nist_category} (NIST SP 800-88 Rev. 2)` : c.wipe.nist_category },
    { label: 'Drive manufacturer', value: c.drive.manufacturer ?? driveVendor(c.drive.model) },
    { label: 'Drive model', value: c.drive.model, span: 2 },
    { label: 'Drive serial', value: c.drive.serial, mono: true },
    { label: 'Capacity', value: capacity, span: 2 },
    { label: 'Method', value: c.wipe.method, span: 2 },
    { label: rev2 ? 'Technique (IEEE 2883-2022) and command' : 'Technique', value: c.wipe.technique, span: 2 },
    ...(rev2
      ? [
          { label: 'Standard and level the method meets', value: standardAndLevel(c.wipe), span: 4 },
          { label: 'Validation (independent check of the outcome)', value: c.validation_status ?? null, span: 4 },
        ]
      : []),
  ], 4, 3);
  frame.y -= 6;
  if (c.crypto_erase_evidence) {
    drawSectionHeading(frame, 'Cryptographic erase: what shows the key was changed');
    drawFieldGrid(frame, [
      { label: 'Command issued', value: c.crypto_erase_evidence.command, mono: true, span: 4 },
      { label: 'Marker read-back after it', value: c.crypto_erase_evidence.marker_readback, span: 4 },
    ], 4, 6);
    frame.y -= 6;
  }

  drawSectionHeading(frame, 'Timeline');
  const started = c.wipe.started_at;
  drawTable(frame, [{ header: 'Event', width: 0.3, bold: true }, { header: 'Time (UTC)', width: 0.35 }, { header: 'Since start', width: 0.35 }], [
    ['Erasure started', formatTimestamp(started, false) ?? '', started ? '0 min 00 s' : ''],
    ['Erasure completed', formatTimestamp(c.wipe.completed_at, false) ?? '', formatDuration(started, c.wipe.completed_at) ?? ''],
    ['Certified (signed)', formatTimestamp(c.signed_at, false) ?? '', formatDuration(started, c.signed_at) ?? ''],
  ]);

  drawSectionHeading(frame, rev2 ? 'Verification result: the technique completed as intended' : 'Verification result');
  drawParagraph(frame, c.verification.result?.trim() ? c.verification.result : 'No verification result was reported.', BODY);
  frame.y -= 10;

  drawHealthSection(frame, report.wipeResult.health);

  drawSectionHeading(frame, 'Wipe result record');
  const recordRows = wipeRecordRows(report.wipeResult, capacity);
  drawTable(
    frame,
    [{ header: 'Field', width: 0.3, bold: true }, { header: 'Value', width: 0.7 }],
    recordRows.map(([label, , value]) => [label, value]),
  );

  drawStationBay(frame, report);
  drawMachine(frame, report);

  drawSectionHeading(frame, 'Hardware tests');
  drawTable(
    frame,
    [{ header: 'Test', width: 0.22, bold: true }, { header: 'Status', width: 0.18 }, { header: 'Detail', width: 0.6 }],
    testRows(report.tests),
  );

  drawSectionHeading(frame, 'Operator notes');
  drawParagraph(frame, report.notes?.trim() ? report.notes : 'No operator notes were recorded.', BODY);
  frame.y -= 14;

  drawSectionHeading(frame, 'Verification', 70);
  drawParagraph(
    frame,
    `This report accompanies Certificate of Sanitization ${c.certificate_number}. The signed certificate record is ` +
      'attached to this PDF (certificate.json, signed with Ed25519 in certificate.sig) and can be checked at:',
    BODY,
  );
  drawParagraph(frame, c.verify_url, { role: 'mono', size: 8.5, color: ACCENT });
  drawParagraph(frame, `Signature fingerprint: ${signatureFingerprint(report.signature)}`, { role: 'mono', size: 8.5 });
  frame.y -= 14;

  // Auditors matching the report to the wire record (spec section 2) need the field names;
  // a customer reading the report does not, so they sit at the end.
  drawSectionHeading(frame, 'Appendix: wire names of the wipe result record', 70);
  drawParagraph(frame, 'For auditors: each field above as the device named it in the wipe result it sent.', BODY);
  frame.y -= 4;
  drawTable(
    frame,
    [{ header: 'Field', width: 0.4, bold: true }, { header: 'Wire name', width: 0.6, mono: true }],
    recordRows.map(([label, wire]) => [label, wire]),
  );

  drawPageNumbers(frame, c.certificate_number, c.certificate_id);
  return paintDocument(frame, c, report.signature, {
    title: `Erasure Report ${c.certificate_number}`,
    subject: `Erasure report for drive ${c.drive.serial ?? 'unknown serial'}`,
    keywords: [c.certificate_number, c.certificate_id, 'erasure report'],
  }, deps.pdfSigner, deps.branding);
}

/** Hotswap wipes: the bay the drive sat in and the chassis map that names it (from tool_components). */
function drawStationBay(frame: Frame, report: ErasureReportData): void {
  const where = stationBayOf(report.wipeResult.tool_components);
  if (!where) return;
  drawSectionHeading(frame, 'Station bay');
  drawFieldGrid(frame, [
    { label: 'Bay', value: where.bay },
    { label: 'Chassis map', value: where.chassis ?? null, span: 3 },
  ], 4, 3);
  frame.y -= 6;
}

function drawMachine(frame: Frame, report: ErasureReportData): void {
  const fp = report.fingerprint;
  const machine = report.certificate.source_machine;
  drawSectionHeading(frame, 'Source machine');
  if (!fp && !machine) {
    drawParagraph(frame, 'No source machine was matched to this drive (for example a hotswap station wipe).', BODY);
    frame.y -= 10;
    return;
  }
  const system = fp?.system;
  const cpu: Record<string, unknown> = { ...fp?.cpu };
  drawFieldGrid(frame, [
    { label: 'Manufacturer', value: system?.manufacturer ?? system?.vendor ?? machine?.manufacturer ?? null },
    { label: 'Product', value: system?.product ?? system?.model ?? machine?.model ?? null },
    { label: 'Serial number', value: system?.serial ?? machine?.serial ?? null, mono: true },
    { label: 'Asset ID', value: machine?.asset_id ?? null, mono: true },
    { label: 'System UUID', value: system?.uuid ?? null, mono: true, span: 2 },
    { label: 'CPU', value: fp?.cpu?.model ?? null, span: 2 },
    { label: 'CPU cores / threads', value: [formatUnknown(cpu.cores), formatUnknown(cpu.threads)].filter(Boolean).join(' / ') || null },
    { label: 'Memory', value: formatBytes(fp?.memory?.total_bytes) },
    { label: 'Asset tag', value: system?.asset_tag ?? null },
  ], 4, 3);
  frame.y -= 6;

  drawSectionHeading(frame, 'Storage devices');
  const rows = storageRows(fp, report.certificate.drive.serial);
  if (rows.length === 0) drawParagraph(frame, 'The machine reported no storage devices.', BODY);
  else drawTable(frame, [{ header: 'Model', width: 0.32 }, { header: 'Serial', width: 0.28, mono: true }, { header: 'Size', width: 0.26 }, { header: 'Type', width: 0.14 }], rows);

  drawSectionHeading(frame, 'SMART health of the erased drive');
  const smart = smartRows(erasedDriveEntry(fp, report.certificate.drive.serial));
  if (smart.length === 0) {
    drawParagraph(frame, 'No SMART data was reported for this drive.', BODY);
    frame.y -= 10;
  } else drawTable(frame, [{ header: 'Attribute', width: 0.45 }, { header: 'Value', width: 0.55 }], smart);
}

/** Small running header; returns where page content starts. */
function drawRunningHeader(frame: Frame, certificateNumber: string): number {
  const page = frame.pages[frame.pages.length - 1];
  page?.push({ kind: 'rect', x: 0, y: frame.height - 6, width: frame.width, height: 6, fill: ACCENT });
  const top = frame.top + 12;
  drawText(frame, 'ERASURE CLOUD · ERASURE REPORT', { role: 'bold', size: 7.5, color: ACCENT }, frame.left, top);
  const right = `Certificate ${certificateNumber}`;
  drawText(frame, right, SMALL, frame.right - textWidth(frame.fonts, right, SMALL), top);
  page?.push({ kind: 'line', x1: frame.left, y1: top - 13, x2: frame.right, y2: top - 13, color: RULE, width: 0.5 });
  return top - 28;
}

/** Footers are drawn last, once the page count is known. */
function drawPageNumbers(frame: Frame, number: string, id: string): void {
  const total = frame.pages.length;
  const y = MARGIN.bottom - 18;
  frame.pages.forEach((page, i) => {
    page.push({ kind: 'line', x1: frame.left, y1: y + 11, x2: frame.right, y2: y + 11, color: RULE, width: 0.5 });
    page.push(textOp(frame.fonts, `${number} · ${id}`, SMALL, frame.left, y + 8).op);
    const label = `Page ${i + 1} of ${total}`;
    page.push(textOp(frame.fonts, label, SMALL, frame.right - textWidth(frame.fonts, label, SMALL), y + 8).op);
  });
}

