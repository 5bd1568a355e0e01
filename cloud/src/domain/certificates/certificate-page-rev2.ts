import { stationBayOf } from '@erasure/shared';
import type { Branding } from '../branding/branding.js';
import type { CertificateContent } from './certificate-content.js';
import { formatCapacityGb, formatTimestamp, titleize } from './format.js';
import { drawFieldGrid, drawSectionHeading, NOT_RECORDED, type Field } from './layout-blocks.js';
import type { Frame } from './layout.js';
import { customerClause, drawHeader, verificationText, type BandStyle } from './certificate-page-head.js';
import { standardAndLevel, validationWords } from './rev2-record.js';
import { ENGLISH, type Wording } from './i18n/wording.js';
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
export function drawRev2Header(frame: Frame, content: CertificateContent, branding: Branding | null = null, w: Wording = ENGLISH): void {
  const statement = w.t('cert.statement', { account: content.account_name, customer: customerClause(content, w), level: content.wipe.nist_category });
  drawHeader(frame, content, statement, branding, w);
}

export function drawRev2Sections(frame: Frame, content: CertificateContent, maxLines: number, resultLines: number, w: Wording = ENGLISH): void {
  const { drive, wipe, tool, verification } = content;
  // Six columns, not v1-v3's four: the Rev. 2 and Appendix G fields need the denser grid to fit one page.
  const section = (title: string, fields: readonly Field[]) => {
    drawSectionHeading(frame, title);
    drawFieldGrid(frame, fields, 6, maxLines);
    frame.y -= 4;
  };
  const machine = content.source_machine;
  section(w.t('cert.section.media'), [
    { label: w.t('field.manufacturer'), value: drive.manufacturer ?? driveVendor(drive.model) },
    { label: w.t('field.model'), value: drive.model, span: 2 },
    { label: w.t('field.serial'), value: drive.serial, mono: true, span: 2 },
    { label: w.t('field.capacity'), value: formatCapacityGb(drive.capacity_gb, w) },
    { label: w.t('field.mediaType'), value: drive.media_type },
    { label: w.t('cert.mediaSource'), value: mediaSource(content, w), span: 3 },
    // Two columns: an asset id is one token and must not break in the middle.
    { label: w.t('field.assetId'), value: machine?.asset_id ?? null, mono: true, span: 2 },
  ]);
  const evidence = content.crypto_erase_evidence;
  section(w.t('cert.section.sanitization'), [
    { label: w.t('field.method'), value: wipe.method, span: 2 },
    { label: w.t('field.started'), value: formatTimestamp(wipe.started_at, false, w), span: 2 },
    { label: w.t('field.completed'), value: formatTimestamp(wipe.completed_at, false, w), span: 2 },
    // The two lines a reader of Rev. 2 looks for keep two lines each, whatever else gives way.
    { label: w.t('cert.standardAndLevel'), value: standardAndLevel(wipe, w), span: 6, maxLines: 2 },
    { label: w.t('cert.techniqueCommand'), value: wipe.technique, span: 6, maxLines: 2 },
    ...(evidence
      ? [
          { label: w.t('cert.cryptoCommand'), value: evidence.command, mono: true, span: 3, maxLines: 2 },
          { label: w.t('cert.cryptoReadback'), value: evidence.marker_readback, span: 3, maxLines: 2 },
        ]
      : []),
    { label: w.t('field.passes'), value: wipe.passes_completed === null ? w.t('cert.passesFirmware') : String(wipe.passes_completed) },
    { label: w.t('cert.toolUsed'), value: [tool.name, tool.version].filter(Boolean).join(' ') || null, span: 2 },
    { label: w.t('cert.person'), value: content.operator, span: 3 },
    { label: w.t('cert.toolComponents'), value: tool.components, span: 6 },
  ]);
  section(w.t('cert.section.verification'), [
    { label: w.t('field.verificationMethod'), value: verification.method, span: 2 },
    { label: w.t('field.verificationHash'), value: verification.hash, mono: true, span: 4 },
    { label: w.t('field.result'), value: verificationText(frame, verification.result, resultLines, w), span: 6, maxLines: resultLines },
    { label: w.t('cert.validation'), value: validationWords(content.validation_status, w), span: 3, maxLines: 2 },
    // Markings removed is printed in the Erasure Report's record table; the page keeps Appendix G's fields.
    { label: w.t('cert.disposition'), value: titleize(content.disposition), span: 3 },
  ]);
  // Customer and lot are optional (per device token); a row of two dashes would only take space.
  // The asset tag (v5) shares the lot's cell: the page has no room for another row, and both are
  // short references. It is drawn only when the record has one, so older pages redraw as issued.
  const forCustomer = content.customer || content.lot_reference || content.asset_tag;
  section(w.t('cert.section.processing'), [
    { label: w.t('field.processedBy'), value: content.account_name, span: forCustomer ? 2 : 6 },
    ...(forCustomer
      ? [
          { label: w.t('field.customer'), value: content.customer ?? null, span: 2 },
          content.asset_tag
            ? { label: `${w.t('field.lot')} · ${w.t('field.assetTag')}`, value: `${content.lot_reference || NOT_RECORDED} · ${content.asset_tag}`, span: 2 }
            : { label: w.t('field.lot'), value: content.lot_reference ?? null, span: 2 },
        ]
      : []),
  ]);
}

/** Appendix G's "media source": the machine the drive came from, or the station bay it was erased in. */
function mediaSource(content: CertificateContent, w: Wording): string | null {
  const m = content.source_machine;
  if (m) return [[m.manufacturer, m.model].filter(Boolean).join(' ') || w.t('cert.machineFallback'), m.serial ? w.t('cert.machineSerial', { serial: m.serial }) : null].filter(Boolean).join(', ');
  const bay = stationBayOf(content.tool.components);
  if (bay) return w.t('cert.stationBay', { bay: bay.bay }) + (bay.chassis ? ` (${bay.chassis})` : '');
  return null;
}
