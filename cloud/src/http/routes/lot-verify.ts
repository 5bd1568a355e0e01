import type { FastifyInstance } from 'fastify';
import { readWipeResultSource } from '../../adapters/db/certificate-sources.js';
import { findCertificateByPublicId } from '../../adapters/db/certificates.js';
import { findLotDocument, type LotDocumentDriveRow } from '../../adapters/db/lot-documents.js';
import { findRejection } from '../../adapters/db/validation.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { verifyUrl } from '../../domain/certificates/build-content.js';
import type { PublicKeyLookup } from '../../domain/certificates/certificate-content.js';
import type { StoredLotSummary } from '../../domain/certificates/lot-document.js';
import { isLanguage, wordingFor, type Language } from '../../domain/certificates/i18n/wording.js';
import { checkCertificate } from '../../domain/certificates/tamper-check.js';
import { wantsPage } from '../session.js';
import { lotNotFoundPage, lotVerifyPage, type LotVerifyAnswer, type LotVerifyCertificate } from './lot-verify-page.js';
import { NEVER_FRAMED } from './pages.js';

/** The public verify page of a lot certificate (printed and QR-coded on its first page). */
export function lotVerifyUrl(publicBaseUrl: string, lotDocumentId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/lots/${encodeURIComponent(lotDocumentId)}/verify`;
}

export interface LotVerifyDeps {
  db: SqlDatabase;
  store: ObjectStore;
  publicKeys: PublicKeyLookup;
  publicBaseUrl?: string | undefined;
}

/**
 * `GET /lots/{id}/verify` (beyond the spec, issue 31 item 3): what a lot certificate covers, and
 * whether each certificate in it still passes its own tamper check (spec 4.4), checked now. The
 * lot is valid only when every certificate in it is. Like a certificate's verify URL: a page for
 * a browser, JSON for API clients, never framed.
 */
export function registerLotVerify(app: FastifyInstance, deps: LotVerifyDeps): void {
  app.get<{ Params: { id: string }; Querystring: { lang?: string } }>('/lots/:id/verify', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('vary', 'Accept').headers(NEVER_FRAMED);
    const asPage = wantsPage(request);
    const row = /^lotdoc_[0-9a-f]{1,64}$/.test(request.params.id) ? await findLotDocument(deps.db, request.params.id) : undefined;
    const stored = row ? (JSON.parse(row.summary) as StoredLotSummary) : undefined;
    // The language and the validation facts are the page's; the JSON answer's summary is as before.
    const { language: drawnIn, validation_facts: validationFacts, ...summary } = stored ?? ({} as StoredLotSummary);
    // The page speaks the lot document's language (the one its pages were drawn in), or the one asked for.
    const asked = request.query.lang;
    const language = isLanguage(asked) ? asked : isLanguage(drawnIn) ? drawnIn : 'en';
    const pageLanguage = { wording: wordingFor(language), hrefOf: (l: Language) => `/lots/${encodeURIComponent(request.params.id)}/verify?lang=${l}` };
    if (!row) {
      if (asPage) return reply.code(404).type('text/html; charset=utf-8').send(lotNotFoundPage(pageLanguage));
      return reply.code(404).send({ valid: false, error: 'not_found' });
    }
    const account = (await deps.db.one<{ name: string }>('SELECT name FROM accounts WHERE id = @id', { id: row.account_id }))!;
    const base = deps.publicBaseUrl ?? '';
    const certificates: LotVerifyCertificate[] = [];
    const uncertified: LotVerifyAnswer['uncertified'] = [];
    for (const drive of JSON.parse(row.drives) as LotDocumentDriveRow[]) {
      if (!drive.certificate_id || !drive.certificate_number) {
        uncertified.push({ drive_serial: drive.serial, drive_model: drive.model, status: drive.status });
        continue;
      }
      certificates.push({
        certificate_number: drive.certificate_number,
        certificate_id: drive.certificate_id,
        valid: await certificateHolds(deps, drive.certificate_id, row.account_id, account.name),
        verify_url: verifyUrl(base, drive.certificate_id),
        drive_serial: drive.serial,
        drive_model: drive.model,
      });
    }
    const answer: LotVerifyAnswer = {
      valid: certificates.length > 0 && certificates.every((c) => c.valid),
      lot_document_id: row.public_id,
      account: account.name,
      generated_at: row.created_at,
      document_sha256: row.document_sha256,
      summary,
      certificates,
      uncertified,
    };
    if (!asPage) return reply.code(200).send(answer);
    return reply.code(200).type('text/html; charset=utf-8').send(lotVerifyPage(answer, { language: pageLanguage, validation: validationFacts }));
  });
}

/** A certificate of the lot passes its own check now: the same check as its verify URL, validation included. */
async function certificateHolds(deps: LotVerifyDeps, certificateId: string, accountId: number, accountName: string): Promise<boolean> {
  const cert = await findCertificateByPublicId(deps.db, certificateId);
  const wipe = cert && cert.account_id === accountId ? await readWipeResultSource(deps.db, cert.wipe_result_id) : undefined;
  if (!cert || !wipe) return false;
  const checked = await checkCertificate({ publicKeys: deps.publicKeys, readObject: (key) => deps.store.get(key) }, cert, wipe, accountName);
  return checked.valid && !(await findRejection(deps.db, cert.wipe_result_id));
}
