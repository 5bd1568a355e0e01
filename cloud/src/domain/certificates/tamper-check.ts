import { createHash } from 'node:crypto';
import type { CertificateStatus, WipeResultRecord } from '@erasure/shared';
import { canonicalJson, verifyKeyedBytes, type CertificateContent, type PublicKeyLookup } from './certificate-content.js';
import { signedWipeFacts, wipeFacts } from './build-content.js';

/** The stored certificate as the tamper check reads it. */
export interface StoredCertificate {
  public_id: string;
  certificate_number: string;
  status: CertificateStatus;
  content: string | null;
  signature: string | null;
  signed_at: string | null;
  certificate_key: string | null;
  certificate_sha256: string | null;
  report_key: string | null;
  report_sha256: string | null;
}

/** Spec 2 "Public verify fields". */
export interface VerifyAnswer {
  valid: boolean;
  certificate_number: string;
  account: string;
  drive_serial: string | null;
  drive_model: string | null;
  drive_capacity_gb: number | null;
  wipe_method: string | null;
  passes_completed: number | null;
  completed_at: string | null;
  signed_at: string | null;
}

/** Ports of the tamper check: the verification key and the object store's reads. */
export interface TamperCheckDeps {
  /** Public keys for a signature's key id (see {@link verifyKeyedBytes}). */
  publicKeys: PublicKeyLookup;
  /** Reads a stored object; undefined when it is gone. */
  readObject(key: string): Promise<Uint8Array | undefined>;
  /** `none`: the sandbox issues no PDFs (spec 1), so only the signed record is checked. Default `stored`. */
  documents?: 'stored' | 'none';
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Recomputes a certificate's tamper check from the current rows (spec 4.4). Valid only when the
 * certificate is complete, the stored content is canonical and verifies under the signing key,
 * it names this certificate and its number and signing time, its wipe facts equal the current
 * wipe result row, and both PDFs still hash to the recorded values. The fields shown are read
 * from the current rows, so a reader of a tampered record sees what the database now says.
 */
export async function checkCertificate(
  deps: TamperCheckDeps,
  cert: StoredCertificate,
  wipe: { public_id: string; record: WipeResultRecord },
  accountName: string,
): Promise<VerifyAnswer> {
  const r = wipe.record;
  let content: CertificateContent | undefined;
  try {
    content = cert.content === null ? undefined : (JSON.parse(cert.content) as CertificateContent);
  } catch {
    content = undefined;
  }
  const answer: VerifyAnswer = {
    valid: false,
    certificate_number: cert.certificate_number,
    account: typeof content?.account_name === 'string' ? content.account_name : accountName,
    drive_serial: r.drive_serial ?? null,
    drive_model: r.drive_model ?? null,
    drive_capacity_gb: r.drive_capacity_gb ?? null,
    wipe_method: r.wipe_method ?? null,
    passes_completed: r.passes_completed ?? null,
    completed_at: r.completed_at ?? null,
    signed_at: cert.signed_at,
  };
  if (cert.status !== 'complete' || !content || cert.content === null || cert.signature === null) return answer;
  answer.valid =
    (await signedRecordHolds(deps, cert, content, wipe)) && (deps.documents === 'none' || (await objectsHold(deps, cert)));
  return answer;
}

async function signedRecordHolds(
  deps: TamperCheckDeps,
  cert: StoredCertificate,
  content: CertificateContent,
  wipe: { public_id: string; record: WipeResultRecord },
): Promise<boolean> {
  // Checked before the shape checks below: the key lookup reads the database, and a store that
  // cannot be read is a server error, not a tampered certificate.
  if (!(await verifyKeyedBytes(deps.publicKeys, Buffer.from(cert.content!, 'utf8'), cert.signature!))) return false;
  try {
    // The stored text must be the canonical form: that is what was signed and attached.
    if (canonicalJson(content) !== cert.content) return false;
    if (content.certificate_id !== cert.public_id || content.certificate_number !== cert.certificate_number) return false;
    if (content.signed_at !== cert.signed_at) return false;
    return canonicalJson(signedWipeFacts(content)) === canonicalJson(wipeFacts(wipe));
  } catch {
    return false; // content of the wrong shape is tampering, not a server error
  }
}

async function objectsHold(deps: TamperCheckDeps, cert: StoredCertificate): Promise<boolean> {
  const pairs: [string | null, string | null][] = [
    [cert.certificate_key, cert.certificate_sha256],
    [cert.report_key, cert.report_sha256],
  ];
  for (const [key, digest] of pairs) {
    if (!key || !digest) return false;
    const bytes = await deps.readObject(key);
    if (!bytes || sha256(bytes) !== digest) return false;
  }
  return true;
}
