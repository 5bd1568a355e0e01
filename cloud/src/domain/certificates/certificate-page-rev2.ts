import { stationBayOf } from '@erasure/shared';
import type { Branding } from '../branding/branding.js';
import type { CertificateContent } from './certificate-content.js';
import { formatCapacityGb, formatTimestamp, titleize } from './format.js';
import { drawFieldGrid, drawSectionHeading, NOT_RECORDED, type Field } from './layout-blocks.js';
import type { Frame } from './layout.js';
import { ASSET_TAG_LABEL, customerClause, drawHeader, verificationText, type BandStyle } from './certificate-page-head.js';
import { standardAndLevel } from './rev2-record.js';
import { driveVendor } from '../wipes/vendor.js';

/*
 * The page of a v4 certificate (issue 29): NIST SP 800-88 Rev. 2 / IEEE 2883-2022 words, and the
 * fields of the Rev. 1 Appendix G form that still apply (media, source, sanitization description,
 * method, technique, tool and version, verification, validation, disposition, person, date,
 * signature). Frozen once issued: `verify-pdf` redraws this page from a v4 record and compares it
 * operation by operation, so a change here must come with a new schema version, as v4 came.
 */

/** The summary band, slimmer than v1-v3's so the Rev. 2 fields fit the one page. */
export const REV2_BAND: BandStyle = { levelLabel: 'Sanitization level', height: 30, gap: 10, levelSize: 13, valueSize: 10, levelY: 16, valueY: 17 };

/** The header: the v1-v3 header with the Rev. 2 statement. */
export function drawRev2Header(frame: Frame, content: CertificateContent, branding: Branding | null = null): void {
  const statement =
    `This certifies that the storage device below, processed by ${content.account_name}${customerClause(content)}, was sanitized to the ` +
    `${content.wipe.nist_category} level of NIST SP 800-88 Rev. 2 by the IEEE 2883-2022 technique recorded, verified to have completed as intended. ` +
    'This signed record can be checked with the QR code below.';
  drawHeader(frame, content, statement, branding);
}

export function drawRev2Sections(frame: Frame, content: CertificateContent, maxLines: number, resultLines: number): void {
  const { drive, wipe, tool, verification } = content;
  // Six columns, not v1-v3's four: the Rev. 2 and Appendix G fields need the denser grid to fit one page.
  const section = (title: string, fields: readonly Field[]) => {
    drawSectionHeading(frame, title);
    drawFieldGrid(frame, fields, 6, maxLines);
    frame.y -= 4;
  };
  const machine = content.source_machine;
  section('Storage media', [
    { label: 'Manufacturer', value: drive.manufacturer ?? driveVendor(drive.model) },
    { label: 'Model', value: drive.model, span: 2 },
    { label: 'Serial number', value: drive.serial, mono: true, span: 2 },
    { label: 'Capacity', value: formatCapacityGb(drive.capacity_gb) },
    { label: 'Media type', value: drive.media_type },
    { label: 'Media source', value: mediaSource(content), span: 3 },
    // Two columns: an asset id is one token and must not break in the middle.
    { label: 'Asset ID', value: machine?.asset_id ?? null, mono: true, span: 2 },
  ]);
  const evidence = content.crypto_erase_evidence;
  section('Sanitization', [
    { label: 'Method', value: wipe.method, span: 2 },
    { label: 'Started (UTC)', value: formatTimestamp(wipe.started_at, false), span: 2 },
    { label: 'Completed (UTC)', value: formatTimestamp(wipe.completed_at, false), span: 2 },
    // The two lines a reader of Rev. 2 looks for keep two lines each, whatever else gives way.
    { label: 'Standard and level the method meets', value: standardAndLevel(wipe), span: 6, maxLines: 2 },
    { label: 'Technique (IEEE 2883-2022) and command', value: wipe.technique, span: 6, maxLines: 2 },
    ...(evidence
      ? [
          { label: 'Crypto erase: command that changed the key', value: evidence.command, mono: true, span: 3, maxLines: 2 },
          { label: 'Crypto erase: marker read-back after it', value: evidence.marker_readback, span: 3, maxLines: 2 },
        ]
      : []),
    { label: 'Passes completed', value: wipe.passes_completed === null ? 'n/a (firmware)' : String(wipe.passes_completed) },
    { label: 'Tool used and version', value: [tool.name, tool.version].filter(Boolean).join(' ') || null, span: 2 },
    { label: 'Person (operator)', value: content.operator, span: 3 },
    { label: 'Tool components and versions', value: tool.components, span: 6 },
  ]);
  section('Verification (the technique completed as intended) and validation', [
    { label: 'Verification method', value: verification.method, span: 2 },
    { label: 'Verification hash (SHA-256)', value: verification.hash, mono: true, span: 4 },
    { label: 'Result', value: verificationText(frame, verification.result, resultLines), span: 6, maxLines: resultLines },
    { label: 'Validation (independent check of the outcome)', value: content.validation_status ?? null, span: 3, maxLines: 2 },
    // Markings removed is printed in the Erasure Report's record table; the page keeps Appendix G's fields.
    { label: 'Post-sanitization disposition', value: titleize(content.disposition), span: 3 },
  ]);
  // Customer and lot are optional (per device token); a row of two dashes would only take space.
  // The asset tag (v5) shares the lot's cell: the page has no room for another row, and both are
  // short references. It is drawn only when the record has one, so older pages redraw as issued.
  const forCustomer = content.customer || content.lot_reference || content.asset_tag;
  section('Processing', [
    { label: 'Processed by', value: content.account_name, span: forCustomer ? 2 : 6 },
    ...(forCustomer
      ? [
          { label: 'Customer', value: content.customer ?? null, span: 2 },
          content.asset_tag
            ? { label: `Lot / job reference · ${ASSET_TAG_LABEL}`, value: `${content.lot_reference || NOT_RECORDED} · ${content.asset_tag}`, span: 2 }
            : { label: 'Lot / job reference', value: content.lot_reference ?? null, span: 2 },
        ]
      : []),
  ]);
}

/** Appendix G's "media source": the machine the drive came from, or the station bay it was erased in. */
function mediaSource(content: CertificateContent): string | null {
  const m = content.source_machine;
  if (m) return [[m.manufacturer, m.model].filter(Boolean).join(' ') || 'Machine', m.serial ? `serial ${m.serial}` : null].filter(Boolean).join(', ');
  const bay = stationBayOf(content.tool.components);
  if (bay) return `Hotswap station, ${bay.bay}${bay.chassis ? ` (${bay.chassis})` : ''}`;
  return null;
}
