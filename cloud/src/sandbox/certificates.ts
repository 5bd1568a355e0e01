import type { KeyObject } from 'node:crypto';
import { readCertificateSources } from '../adapters/db/certificate-sources.js';
import { createCertificate, saveSignedContent, setCertificateStatus } from '../adapters/db/certificates.js';
import type { CertificateIssuer } from '../adapters/db/wipe-results.js';
import { findMachineByDriveScan } from '../adapters/db/sandbox/rows.js';
import { buildCertificateContent } from '../domain/certificates/build-content.js';
import { canonicalJson, signContent } from '../domain/certificates/certificate-content.js';

/**
 * The sandbox's certificate policy (spec 1, 3 "Certificate status"): the certificate is numbered,
 * signed and `complete` inside the transaction that stores its wipe result, with no job, no PDF
 * and no object storage. The signed content is the cloud's, so the tamper check is the cloud's
 * too (minus the PDF hashes); the source machine comes from a fingerprint scan (spec 1).
 */
export function synchronousCertificates(deps: { signingKey: KeyObject; publicBaseUrl: string }): CertificateIssuer {
  return async (db, subject) => {
    const certificate = await createCertificate(db, subject);
    const sources = await readCertificateSources(db, subject.wipeResultId);
    // Broken invariant, not an outcome: the row was inserted in this very transaction.
    if (!sources) throw new Error(`wipe result ${subject.wipeResultId} vanished while certifying it`);
    const content = buildCertificateContent({
      certificate,
      wipe: sources.wipe,
      accountName: sources.accountName,
      operator: sources.operator,
      machine: await findMachineByDriveScan(db, subject.accountId, sources.wipe.record.drive_serial),
      signedAt: subject.now,
      publicBaseUrl: deps.publicBaseUrl,
      // The sandbox makes no PDFs, so its records name no PDF signer.
      pdfSignerSha256: null,
    });
    await saveSignedContent(db, certificate.id, {
      content: canonicalJson(content),
      signature: signContent(deps.signingKey, content),
      signedAt: content.signed_at,
      now: subject.now,
    });
    await setCertificateStatus(db, certificate.id, 'complete', subject.now);
    return 'complete';
  };
}
