import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { readWipeResultSource } from '../../adapters/db/certificate-sources.js';
import { findCertificateByPublicId } from '../../adapters/db/certificates.js';
import { isValidObjectKey, type ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import type { PublicKeyLookup } from '../../domain/certificates/certificate-content.js';
import { checkPresigned, FILES_PREFIX, presignPath } from '../../domain/certificates/presign.js';
import { checkCertificate, type StoredCertificate } from '../../domain/certificates/tamper-check.js';
import { requireSession, sessionOf, wantsPage } from '../session.js';
import { deriveNistCategory } from '../../domain/certificates/certificate-content.js';
import { notFoundPage, verifyPage } from './verify-page.js';
import { isLanguage, wordingFor, type Language } from '../../domain/certificates/i18n/wording.js';
import { issuerBranding } from './verify-branding.js';
import { NEVER_FRAMED } from './pages.js';
import { findRejection } from '../../adapters/db/validation.js';
import type { PdfSigner } from '../../domain/certificates/pdf-signing-certificate.js';

/** What the certificate routes need; optional in CloudAppDeps, the routes exist only with it. */
export interface CertificateRouteDeps {
  db: SqlDatabase;
  clock: Clock;
  store: ObjectStore;
  /** Public keys for a signature's key id: every key on record, retired keys included. */
  publicKeys: PublicKeyLookup;
  /** Keys the HMAC of presigned `/files/…` URLs. */
  urlSigningSecret: Uint8Array;
  /** `PUBLIC_BASE_URL`; presigned redirects are absolute under it, relative without it. */
  publicBaseUrl?: string;
  /** Signs lot certificates (issue 31 item 3) as the worker signs single ones; without it none are made. */
  pdfSigning?: () => Promise<PdfSigner>;
}

/** The notice the wipes page shows when a certificate is asked for before its PDFs exist. */
export const GENERATING_NOTICE = 'certificate-generating';

/**
 * Where to send a browser back to while the PDF is not ready: the page it came from when that
 * is on this site (Referer with our host), else the wipes grid; either way with the notice.
 */
function backWithNotice(request: FastifyRequest, publicBaseUrl: string): string {
  const referer = request.headers.referer;
  if (referer) {
    try {
      const url = new URL(referer);
      // Hosts compared through URL, which drops default ports ("localhost:80" is "localhost").
      const ours = [`http://${request.headers.host ?? ''}`, publicBaseUrl].map((u) => URL.canParse(u) && new URL(u).host);
      if (ours.includes(url.host) && (url.protocol === 'http:' || url.protocol === 'https:')) {
        url.searchParams.set('notice', GENERATING_NOTICE);
        return `${url.pathname}${url.search}`;
      }
    } catch {
      // an unparseable Referer is ignored like a foreign one
    }
  }
  return `/wipes?notice=${GENERATING_NOTICE}`;
}

const NOT_FOUND = { error: 'not found' } as const;

/** The stored object of a certificate's PDF or Erasure Report, once the certificate is complete; else undefined. */
export function documentKeyOf(cert: Pick<StoredCertificate, 'status' | 'certificate_key' | 'report_key'>, document: 'certificate' | 'report'): string | undefined {
  const key = document === 'report' ? cert.report_key : cert.certificate_key;
  return cert.status === 'complete' && key ? key : undefined;
}

/** Spec 4.4: a presigned PDF URL is valid 5 minutes. */
export const PRESIGNED_SECONDS = 300;

/**
 * 302 to a presigned URL of a stored PDF (spec 4.4, 5.4): the one way a certificate's bytes leave
 * the store, for the web app's downloads and the public API's (issue 31 item 5) alike. A bucket
 * customers reach presigns its own GET (issue 33); otherwise the cloud's `/files/…` link serves it.
 */
export async function redirectToFile(
  reply: FastifyReply,
  files: { base: string; urlSigningSecret: Uint8Array; nowMs: number; store?: ObjectStore | undefined },
  key: string,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  const direct = files.store?.downloadUrl ? await files.store.downloadUrl(key, PRESIGNED_SECONDS, fileHeadersOf(key)) : undefined;
  return reply.code(302).header('location', direct ?? files.base + presignPath(files.urlSigningSecret, key, files.nowMs)).send();
}

/**
 * Spec 4.4: the public tamper check, the session-guarded PDF downloads (302 to a presigned URL)
 * and the presigned file route itself.
 */
export function registerCertificateRoutes(app: FastifyInstance, deps: CertificateRouteDeps): void {
  const base = (deps.publicBaseUrl ?? '').replace(/\/+$/, '');

  app.get<{ Params: { id: string }; Querystring: { lang?: string } }>('/certificates/:id/verify', async (request, reply) => {
    // One URL for people and programs: the QR code opens a page in a phone's browser, while API
    // clients (spec 4.4) keep the JSON answer. Caches must keep the two apart.
    // The page is what a customer trusts as "genuine": no other site may show it in a frame.
    reply.header('cache-control', 'no-store').header('vary', 'Accept').headers(NEVER_FRAMED);
    const asPage = wantsPage(request);
    const cert = await findCertificateByPublicId(deps.db, request.params.id);
    const wipe = cert && (await readWipeResultSource(deps.db, cert.wipe_result_id));
    // The page speaks the certificate's language (the one its PDF was drawn in), or the one asked for.
    const asked = request.query.lang;
    const language = isLanguage(asked) ? asked : isLanguage(cert?.language) ? cert.language : 'en';
    const pageLanguage = { wording: wordingFor(language), hrefOf: (l: Language) => `/certificates/${encodeURIComponent(request.params.id)}/verify?lang=${l}` };
    if (!cert || !wipe) {
      if (asPage) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage(pageLanguage));
      return reply.code(404).send({ valid: false, error: 'not_found' });
    }
    const account = (await deps.db.one<{ name: string }>('SELECT name FROM accounts WHERE id = @id', { id: cert.account_id }))!;
    const checked = await checkCertificate(
      { publicKeys: deps.publicKeys, readObject: (key) => deps.store.get(key) },
      cert,
      wipe,
      account.name,
    );
    // Beyond the spec (issue 29): a drive that failed its independent validation is not
    // sanitized, whatever its signature says; the answer says so and why.
    const rejection = await findRejection(deps.db, cert.wipe_result_id);
    const answer = rejection ? { ...checked, valid: false, validation: 'rejected', reason: rejection.reason } : checked;
    if (!asPage) return reply.code(200).send(answer);
    const owner = request.signedIn?.account.id === cert.account_id;
    const downloads =
      owner && cert.status === 'complete'
        ? [
            { label: pageLanguage.wording.t('verify.download.certificate'), href: `/certificates/${cert.public_id}` },
            { label: pageLanguage.wording.t('verify.download.report'), href: `/certificates/${cert.public_id}?document=report` },
          ]
        : [];
    const category = wipe.record.wipe_method ? deriveNistCategory(wipe.record.wipe_method, wipe.record.technique) : null;
    return reply.code(200).type('text/html; charset=utf-8').send(verifyPage(answer, {
      category,
      technique: wipe.record.technique ?? null,
      verification: wipe.record.verification_result ?? null,
      downloads,
      rejection: rejection ? { reason: rejection.reason, validatedAt: rejection.validated_at } : null,
      issuer: await issuerBranding(deps.db, deps.store, cert.account_id),
    }, pageLanguage));
  });

  app.get<{ Params: { id: string }; Querystring: { document?: string } }>(
    '/certificates/:id',
    { preHandler: requireSession },
    async (request, reply) => {
      const cert = await findCertificateByPublicId(deps.db, request.params.id);
      // Another account's certificate is indistinguishable from a missing one.
      if (!cert || cert.account_id !== sessionOf(request).account.id) return reply.code(404).send(NOT_FOUND);
      const key = documentKeyOf(cert, request.query.document === 'report' ? 'report' : 'certificate');
      if (!key) return reply.code(303).header('location', backWithNotice(request, base)).send();
      return redirectToFile(reply, { base, urlSigningSecret: deps.urlSigningSecret, nowMs: deps.clock.now().getTime(), store: deps.store }, key);
    },
  );

  app.get<{ Querystring: { expires?: string; signature?: string } }>(`${FILES_PREFIX}*`, async (request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    const check = checkPresigned(deps.urlSigningSecret, path, request.query, deps.clock.now().getTime());
    if (!check.ok) {
      return check.reason === 'expired'
        ? reply.code(410).send({ error: 'link expired' })
        : reply.code(403).send({ error: 'invalid signature' });
    }
    const key = (request.params as { '*': string })['*'];
    let bytes: Uint8Array | undefined;
    try {
      bytes = isValidObjectKey(key) ? await deps.store.get(key) : undefined;
    } catch (err) {
      // An object store that does not answer (a bucket down) is the store's outage, not a bug.
      request.log.error({ err, key }, 'reading a presigned file from the object store failed');
      return reply.code(503).send({ error: 'object store unavailable' });
    }
    if (!bytes) return reply.code(404).send(NOT_FOUND);
    return sendPdf(reply, key, bytes);
  });
}

/** How a stored file is served, by its key: a PDF shown inline under its own name. */
export function fileHeadersOf(key: string): { contentType: string; contentDisposition: string } {
  const name = key.slice(key.lastIndexOf('/') + 1);
  return {
    contentType: name.endsWith('.pdf') ? 'application/pdf' : 'application/octet-stream',
    contentDisposition: `inline; filename="${name.replace(/["\\]/g, '_')}"`,
  };
}

function sendPdf(reply: FastifyReply, key: string, bytes: Uint8Array): FastifyReply {
  const headers = fileHeadersOf(key);
  return reply
    .code(200)
    .header('content-type', headers.contentType)
    .header('content-disposition', headers.contentDisposition)
    .header('cache-control', 'private, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
