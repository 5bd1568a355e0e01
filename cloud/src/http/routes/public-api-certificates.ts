import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_API_ERRORS, PUBLIC_API_PAGE_SIZE, publicApi } from '@erasure/shared';
import type { Clock } from '../../adapters/clock.js';
import { findCertificateByNumber } from '../../adapters/db/certificates.js';
import { findLotDocument, listLotDocuments } from '../../adapters/db/lot-documents.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { lotDocumentFileKey } from '../../domain/certificates/lot-document-file.js';
import { toPublicCertificate } from '../../domain/public-api/certificate.js';
import { toPublicLot, toPublicLotDetail } from '../../domain/public-api/lot.js';
import { checkAccountFilter, pageEnvelope, parsePage, parseSince } from '../../domain/public-api/query.js';
import { documentKeyOf, redirectToFile } from './certificates.js';
import { lotVerifyUrl } from './lot-verify.js';

export interface PublicCertificatesDeps {
  db: SqlDatabase;
  clock: Clock;
  /** `PUBLIC_BASE_URL`: links and presigned redirects are absolute under it, relative without it. */
  publicBaseUrl?: string | undefined;
  /** Keys the presigned `/files/…` URLs; without it (no certificate store wired) the PDF routes answer 503. */
  urlSigningSecret?: Uint8Array | undefined;
  /** The certificate store: a lot certificate's PDF is kept there (lotDocumentFileKey); absent, the lot PDF route answers 503. */
  store?: ObjectStore | undefined;
  /** The public API's JSON answer (ETag, 304). */
  send: (request: FastifyRequest, reply: FastifyReply, body: unknown) => FastifyReply;
}

const lastOf = (value: unknown): string | undefined => {
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
};

const LOT_ID = /^lotdoc_[0-9a-f]{1,64}$/;

/**
 * Issue 31 item 5, inside the public API's scope (its API key and rate limit):
 * `GET /api/v1/certificates/{number}` and its two PDFs (302 to a presigned file URL, as the web
 * app's downloads), `GET /api/v1/lots` in the assets' shape and sync rules, `GET /api/v1/lots/{id}`
 * and its signed PDF (302 to a presigned URL of the kept file, as a certificate's).
 * Another account's certificate or lot answers exactly as one that does not exist.
 */
export function registerPublicCertificates(scope: FastifyInstance, deps: PublicCertificatesDeps): void {
  const base = (deps.publicBaseUrl ?? '').replace(/\/+$/, '');

  scope.get(publicApi.getCertificate.url, async (request, reply) => {
    const key = request.apiKey!;
    const { number } = request.params as { number: string };
    const row = await findCertificateByNumber(deps.db, key.account_id, number);
    if (!row) return reply.code(404).send({ error: PUBLIC_API_ERRORS.certificateNotFound });
    return deps.send(request, reply, toPublicCertificate(row, key.account_public_id, base));
  });

  for (const [route, document] of [[publicApi.getCertificatePdf, 'certificate'], [publicApi.getCertificateReport, 'report']] as const) {
    scope.get(route.url, async (request, reply) => {
      const key = request.apiKey!;
      const { number } = request.params as { number: string };
      const row = await findCertificateByNumber(deps.db, key.account_id, number);
      if (!row) return reply.code(404).send({ error: PUBLIC_API_ERRORS.certificateNotFound });
      const stored = documentKeyOf(row, document);
      if (!stored) return reply.code(409).send({ error: PUBLIC_API_ERRORS.certificateNotIssued });
      // Fail closed: without the URL signing secret no file link can be made.
      if (!deps.urlSigningSecret) return reply.code(503).send({ error: PUBLIC_API_ERRORS.certificateFilesUnavailable });
      return redirectToFile(reply, { base, urlSigningSecret: deps.urlSigningSecret, nowMs: deps.clock.now().getTime(), store: deps.store }, stored);
    });
  }

  scope.get(publicApi.listLots.url, async (request, reply) => {
    const key = request.apiKey!;
    const query = request.query as Record<string, unknown>;
    const scoped = checkAccountFilter(lastOf(query.account_id), { publicId: key.account_public_id, numericId: key.account_id });
    if (!scoped.ok) return reply.code(scoped.status).send({ error: scoped.error });
    const since = parseSince(lastOf(query.since));
    if (!since.ok) return reply.code(since.status).send({ error: since.error });
    const page = parsePage(lastOf(query.page));
    if (!page.ok) return reply.code(page.status).send({ error: page.error });
    const { rows, count } = await listLotDocuments(
      deps.db,
      { accountId: key.account_id, since: since.value },
      { limit: PUBLIC_API_PAGE_SIZE, offset: (page.value - 1) * PUBLIC_API_PAGE_SIZE },
    );
    return deps.send(request, reply, {
      lots: rows.map((row) => toPublicLot(row, key.account_public_id, lotVerifyUrl(base, row.public_id))),
      ...pageEnvelope(page.value, count),
    });
  });

  scope.get(publicApi.getLot.url, async (request, reply) => {
    const key = request.apiKey!;
    const { id } = request.params as { id: string };
    const row = LOT_ID.test(id) ? await findLotDocument(deps.db, id) : undefined;
    if (!row || row.account_id !== key.account_id) return reply.code(404).send({ error: PUBLIC_API_ERRORS.lotNotFound });
    return deps.send(request, reply, toPublicLotDetail(row, key.account_public_id, { base, verifyUrl: lotVerifyUrl(base, row.public_id) }));
  });

  // The document was signed and kept when it was made (a lot of any size: in the request or by
  // the lot export job), so this only points at the file; nothing is built here.
  scope.get(publicApi.getLotPdf.url, async (request, reply) => {
    const key = request.apiKey!;
    const { id } = request.params as { id: string };
    const row = LOT_ID.test(id) ? await findLotDocument(deps.db, id) : undefined;
    if (!row || row.account_id !== key.account_id) return reply.code(404).send({ error: PUBLIC_API_ERRORS.lotNotFound });
    // Fail closed: without the store or the URL signing secret no file link can be made.
    if (!deps.urlSigningSecret || !deps.store) return reply.code(503).send({ error: PUBLIC_API_ERRORS.certificateFilesUnavailable });
    const stored = lotDocumentFileKey(key.account_public_id, row.public_id);
    if (!(await deps.store.exists(stored))) return reply.code(409).send({ error: PUBLIC_API_ERRORS.lotPdfNotKept });
    return redirectToFile(reply, { base, urlSigningSecret: deps.urlSigningSecret, nowMs: deps.clock.now().getTime(), store: deps.store }, stored);
  });
}
