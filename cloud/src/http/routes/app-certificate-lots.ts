import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import yazl from 'yazl';
import type { Clock } from '../../adapters/clock.js';
import { findCertificateByPublicId } from '../../adapters/db/certificates.js';
import { findAccountCertificateLanguage } from '../../adapters/db/certificate-language.js';
import { lotsOfWipes } from '../../adapters/db/validation.js';
import type { WipeGridReader, WipeGridRow } from '../../adapters/db/wipes-grid.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { DEBIAN_FONT_FILES, loadFontSource, type FontSource } from '../../domain/certificates/fonts.js';
import { lotFileName, renderLotPdf, type LotDrive } from '../../domain/certificates/lot.js';
import { buildLotDocument, storedLotSummary, type LotDocumentDrive } from '../../domain/certificates/lot-document.js';
import { lotDocumentFileKey } from '../../domain/certificates/lot-document-file.js';
import type { PdfSigner } from '../../domain/certificates/pdf-signing-certificate.js';
import { insertLotDocument } from '../../adapters/db/lot-documents.js';
import { lotVerifyUrl } from './lot-verify.js';
import { statusBadge } from '../../domain/wipes/grid.js';
import { requireSession, sessionOf } from '../session.js';

/** At most this many drives in one lot file: a grid page holds 100, a lot is a few pages. */
export const MAX_LOT_DRIVES = 500;
const WIPE_ID = /^wr_[A-Za-z0-9]{1,64}$/;

export interface CertificateLotDeps {
  db: SqlDatabase;
  clock: Clock;
  store: ObjectStore;
  /** Where customers check a certificate (the public base URL). */
  publicBaseUrl?: string | undefined;
  /** Fonts for the summary page; Debian's DejaVu and Droid by default, read at the first lot. */
  fonts?: () => FontSource;
  /** The app's grid reader (`wipeGridReaderOnce`). */
  wipeGrid: () => Promise<WipeGridReader>;
  /** The deployment's PDF signer, as the single certificates use; without it no lot document is made (503). */
  pdfSigning?: (() => Promise<PdfSigner>) | undefined;
}

/** The lot's wipe ids from `?ids=a,b,c`, in the order given (the grid's), or why not. */
export function parseLotIds(value: unknown): { ok: true; ids: string[] } | { ok: false; error: string } {
  const ids = typeof value === 'string' ? value.split(',').map((id) => id.trim()).filter(Boolean) : [];
  if (ids.length === 0) return { ok: false, error: 'ids must name at least one wipe (wr_…), comma-separated' };
  if (ids.length > MAX_LOT_DRIVES) return { ok: false, error: `at most ${MAX_LOT_DRIVES} wipes in one download` };
  const bad = ids.find((id) => !WIPE_ID.test(id));
  if (bad) return { ok: false, error: `not a wipe id: ${bad.slice(0, 80)}` };
  return { ok: true, ids: [...new Set(ids)] };
}

/**
 * `GET /app/api/wipes/certificates?ids=…&format=zip|pdf`: the certificates of the selected (or
 * filtered) grid rows as one ZIP of PDFs, streamed file by file, or as one merged PDF with a
 * summary page. Only the signed-in account's wipes; unknown ids are left out like another
 * account's, so the answer never tells them apart.
 */
export function registerCertificateLots(app: FastifyInstance, deps: CertificateLotDeps): void {
  let fonts: FontSource | undefined;
  const fontSource = () => (fonts ??= deps.fonts ? deps.fonts() : loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => readFileSync(path) }));

  app.get('/app/api/wipes/certificates', { preHandler: requireSession }, async (request, reply) => {
    const { account } = sessionOf(request);
    const query = request.query as { ids?: unknown; format?: unknown };
    const format = query.format ?? 'zip';
    if (format !== 'zip' && format !== 'pdf') return reply.code(422).send({ error: 'format must be zip or pdf' });
    const parsed = parseLotIds(query.ids);
    if (!parsed.ok) return reply.code(422).send({ error: parsed.error });
    const found = new Map((await (await deps.wipeGrid()).byPublicIds(account.id, parsed.ids)).map((row) => [row.public_id, row]));
    const rows = parsed.ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    if (rows.length === 0) return reply.code(404).send({ error: 'none of these wipes exist in this account' });

    const now = deps.clock.now();
    const stamp = now.toISOString().slice(0, 10);
    const validation = (await lotsOfWipes(deps.db, account.id, rows.map((row) => row.public_id))).map((lot) => ({
      name: [lot.customer, lot.lot_reference].filter(Boolean).join(' · '),
      ratePercent: lot.rate_percent,
      certified: lot.certified,
      sampleSize: lot.picked,
      passed: lot.passed,
      failed: lot.failed,
      needsAttention: lot.needs_attention === 1,
    }));
    const facts = { accountName: account.name, generatedAt: now.toISOString(), verifyHint: deps.publicBaseUrl ?? 'the address printed under each QR code', validation };
    const documentsOf = async (row: WipeGridRow) => {
      if (!row.cert_public_id || row.cert_status !== 'complete') return undefined;
      const cert = await findCertificateByPublicId(deps.db, row.cert_public_id);
      if (!cert?.certificate_key || !cert.report_key) return undefined;
      return { number: cert.certificate_number, certificate: cert.certificate_key, report: cert.report_key };
    };
    const driveOf = (row: WipeGridRow, certificatePdf?: Uint8Array): LotDrive => ({
      certificateNumber: row.cert_status === 'complete' ? row.cert_number : null,
      model: row.drive_model,
      serial: row.drive_serial,
      capacityGb: row.drive_capacity_gb,
      method: row.wipe_method,
      status: statusBadge(row.wipe_status).label,
      completedAt: row.completed_at,
      certificatePdf,
    });

    if (format === 'pdf') {
      // Fail closed: a lot document that cannot be signed is not made at all.
      if (!deps.pdfSigning) return reply.code(503).send({ error: 'lot certificates are not available: no PDF signer is configured' });
      // Served in this request for now; a lot above MAX_LOT_DRIVES is refused by parseLotIds.
      // buildLotDocument is a plain function of its inputs, so a background job can run it as is.
      const drives: LotDocumentDrive[] = [];
      const certificateIds: (string | null)[] = [];
      for (const row of rows) {
        const docs = await documentsOf(row);
        const bytes = docs ? await deps.store.get(docs.certificate) : undefined;
        const certificateId = bytes ? row.cert_public_id : null;
        certificateIds.push(certificateId);
        drives.push({ ...driveOf(row, bytes), certificateId, customer: row.customer, lotReference: row.lot_reference });
      }
      const lotDocumentId = `lotdoc_${randomBytes(10).toString('hex')}`;
      const base = deps.publicBaseUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`;
      // Drawn in the account's certificate language as it is now, like the certificates it attaches.
      const language = await findAccountCertificateLanguage(deps.db, account.id);
      const pdf = await buildLotDocument(
        { lotDocumentId, verifyUrl: lotVerifyUrl(base, lotDocumentId), accountName: account.name, generatedAt: facts.generatedAt, drives, validation, language },
        { fonts: fontSource(), pdfSigner: await deps.pdfSigning() },
      );
      // Kept for the public API (GET /api/v1/lots/{id}/pdf), before the row that names it.
      await deps.store.put(lotDocumentFileKey(account.publicId, lotDocumentId), pdf);
      // Recorded only once made, so a verify URL never names a document that was not served.
      await insertLotDocument(deps.db, {
        public_id: lotDocumentId,
        account_id: account.id,
        summary: JSON.stringify(storedLotSummary(drives, validation, language)),
        drives: JSON.stringify(drives.map((d, i) => ({
          certificate_id: certificateIds[i] ?? null,
          certificate_number: certificateIds[i] ? d.certificateNumber : null,
          serial: d.serial,
          model: d.model,
          status: d.status,
        }))),
        document_sha256: createHash('sha256').update(pdf).digest('hex'),
        created_at: facts.generatedAt,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="certificates-${stamp}.pdf"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    }

    // The ZIP is written as it is sent: one certificate's two PDFs in memory at a time.
    const zip = new yazl.ZipFile();
    const body = new PassThrough();
    zip.outputStream.pipe(body);
    void (async () => {
      try {
        zip.addBuffer(Buffer.from(await renderLotPdf(fontSource(), rows.map((row) => driveOf(row)), facts)), '000 summary.pdf', { compress: false, mtime: now });
        for (const [index, row] of rows.entries()) {
          const docs = await documentsOf(row);
          if (!docs) continue;
          for (const [key, document] of [[docs.certificate, 'certificate'], [docs.report, 'erasure report']] as const) {
            const bytes = await deps.store.get(key);
            // PDFs are compressed already: stored, not deflated, costs nothing and loses nothing.
            if (bytes) zip.addBuffer(Buffer.from(bytes), lotFileName(index, docs.number, document), { compress: false, mtime: now });
          }
        }
        zip.end();
      } catch (error) {
        request.log.error({ err: error }, 'certificate lot ZIP failed');
        body.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    })();
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="certificates-${stamp}.zip"`)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
