import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { embeddedFiles } from '../domain/certificates/embedded-certificate.js';
import { LOT_MANIFEST_NAME, LOT_MANIFEST_SCHEMA, type LotManifest } from '../domain/certificates/lot-document.js';
import { checkPdfSignature } from '../domain/certificates/pdf-signature.js';
import { certificateFingerprint } from '../domain/certificates/pdf-signing-certificate.js';
import { xrefInconsistency } from '../domain/certificates/xref-consistency.js';

/** One attached certificate's verdict, as `verify-pdf` gives it for a single certificate. */
export interface AttachmentVerdict {
  valid: boolean;
  reason?: string;
  certificate_number?: unknown;
  [fact: string]: unknown;
}

/** What `verify-pdf` prints for a lot certificate (issue 31 item 3). */
export interface LotPdfVerdict {
  valid: boolean;
  kind: 'lot';
  reason?: string;
  lot_document_id?: string;
  account?: string;
  generated_at?: string;
  certificates?: ({ file: string } & AttachmentVerdict)[];
}

export interface LotPdfChecks {
  /** Whether the PDF signing certificate (SHA-256) is the deployment's; undefined: offline, the attachments' records decide. */
  pdfCertificateOnRecord?: ((fingerprint: string) => Promise<boolean>) | undefined;
  /** `verify-pdf`'s whole check of one certificate PDF file. */
  checkCertificateFile(file: string): Promise<AttachmentVerdict>;
  /** The PDF signer a certificate file's signed record names (v3+), if any. */
  namedPdfSigner(bytes: Uint8Array): Promise<string | undefined>;
}

/**
 * A lot certificate: its one PDF signature holds over the whole file and is the deployment's,
 * its manifest lists every attached certificate with its SHA-256, and each attachment, extracted
 * byte for byte, passes the single certificate's check. Null when the PDF is not a lot certificate.
 */
export async function checkLotPdf(bytes: Uint8Array, checks: LotPdfChecks): Promise<LotPdfVerdict | null> {
  let files: Map<string, Uint8Array>;
  try {
    files = embeddedFiles(await PDFDocument.load(bytes, { updateMetadata: false }));
  } catch {
    return null;
  }
  const manifestBytes = files.get(LOT_MANIFEST_NAME);
  if (!manifestBytes) return null;
  let manifest: LotManifest;
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes)) as LotManifest;
    if (manifest.schema !== LOT_MANIFEST_SCHEMA || !Array.isArray(manifest.certificates)) throw new Error('schema');
  } catch {
    return { valid: false, kind: 'lot', reason: `${LOT_MANIFEST_NAME} is not a lot manifest this verifier knows` };
  }
  const facts = { kind: 'lot' as const, lot_document_id: manifest.lot_document_id, account: manifest.account, generated_at: manifest.generated_at };
  const signature = checkPdfSignature(bytes);
  if (!signature.ok) return { valid: false, reason: signature.reason, ...facts };
  const objects = await xrefInconsistency(bytes);
  if (objects) return { valid: false, reason: objects, ...facts };
  const signer = certificateFingerprint(signature.signerCertificate);

  const dir = mkdtempSync(join(tmpdir(), 'verify-lot-'));
  const certificates: ({ file: string } & AttachmentVerdict)[] = [];
  const named = new Set<string | undefined>();
  try {
    for (const [index, entry] of manifest.certificates.entries()) {
      const attached = files.get(entry.file);
      if (!attached) {
        certificates.push({ file: entry.file, valid: false, reason: 'listed in the manifest but not attached', certificate_number: entry.certificate_number });
        continue;
      }
      if (createHash('sha256').update(attached).digest('hex') !== entry.sha256) {
        certificates.push({ file: entry.file, valid: false, reason: 'the attachment is not the certificate the manifest lists', certificate_number: entry.certificate_number });
        continue;
      }
      const path = join(dir, `${index}.pdf`);
      writeFileSync(path, attached);
      certificates.push({ file: entry.file, ...(await checks.checkCertificateFile(path)) });
      named.add(await checks.namedPdfSigner(attached));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const attachedPdfs = [...files.keys()].filter((name) => name !== LOT_MANIFEST_NAME);
  if (attachedPdfs.length !== manifest.certificates.length) return { valid: false, reason: 'the PDF carries attachments its manifest does not list', ...facts, certificates };
  if (certificates.length === 0) return { valid: false, reason: 'the lot certificate holds no certificate', ...facts, certificates };
  // Whose signature is it: the deployment's on record, or offline the signer every attached record names.
  const trusted = checks.pdfCertificateOnRecord ? await checks.pdfCertificateOnRecord(signer) : named.size === 1 && named.has(signer);
  if (!trusted) return { valid: false, reason: `the lot PDF was signed with a certificate (SHA-256 ${signer}) that is not the deployment's`, ...facts, certificates };
  const failed = certificates.filter((c) => !c.valid).length;
  if (failed > 0) return { valid: false, reason: `${failed} of ${certificates.length} attached certificates do not verify`, ...facts, certificates };
  return { valid: true, ...facts, certificates };
}
