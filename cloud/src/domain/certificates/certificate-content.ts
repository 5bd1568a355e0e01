import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import type { PrefixedId } from '@erasure/shared';

/** NIST SP 800-88 sanitization categories a software wipe can reach (Destroy is physical, never ours). */
export type NistCategory = 'Clear' | 'Purge';

/**
 * Bumped whenever a field is added, renamed or re-interpreted, so old signatures keep their meaning.
 * v2 (issue 23) adds `customer` and `lot_reference`; v1 certificates lack both and still verify.
 * v3 (issue 28) adds `pdf_signer_sha256`: the record names the certificate that signs its PDFs, so
 * a verifier holding only the Ed25519 public key can refuse a PDF anyone else signed.
 * v4 (issue 29) adds `wipe.standard`, `crypto_erase_evidence` and `validation_status`, and selects
 * the NIST SP 800-88 Rev. 2 / IEEE 2883 page; v1-v3 records keep rendering the page they were
 * issued with, since `verify-pdf` regenerates that page from the record and compares it.
 * v5 (issue 31) adds `asset_tag`, the tag a technician typed or scanned at the kiosk; v4 records
 * lack it and keep their page (the tag is drawn only when the record has one).
 */
export const CERTIFICATE_SCHEMA = 'erasure-certificate/v5';

/** The schemas whose page is the Rev. 1-worded layout they were issued with. */
export const REV1_LAYOUT_SCHEMAS: readonly string[] = ['erasure-certificate/v1', 'erasure-certificate/v2', 'erasure-certificate/v3'];

/** Every schema a signed certificate may carry: the current one and those issued before it. */
export const KNOWN_CERTIFICATE_SCHEMAS: readonly string[] = [...REV1_LAYOUT_SCHEMAS, 'erasure-certificate/v4', CERTIFICATE_SCHEMA];

/** Whether signed content names a schema this code can read (fail closed on anything else). */
export function isKnownCertificateSchema(schema: unknown): boolean {
  return typeof schema === 'string' && KNOWN_CERTIFICATE_SCHEMAS.includes(schema);
}

/**
 * Everything a Certificate of Sanitization asserts, and exactly what is signed.
 *
 * Values are snapshots taken when the certificate is issued: the document must keep saying the
 * same thing even if the asset row or account name changes later. Unknown values are `null`
 * rather than absent so every certificate has the same key set (NIST 800-88 App. G shows a
 * blank line for an unknown field instead of leaving it out).
 */
export interface CertificateContent {
  /** Content issued before v5 reads as v4 (nor asset tag), v3 (Rev. 1 page), v2 (nor PDF signer) or v1 (nor customer and lot). */
  schema: typeof CERTIFICATE_SCHEMA | 'erasure-certificate/v4' | 'erasure-certificate/v3' | 'erasure-certificate/v2' | 'erasure-certificate/v1';
  certificate_id: PrefixedId<'cert'>;
  /** `CW-000001`: the account-scoped number printed on both documents. */
  certificate_number: string;
  wipe_result_id: PrefixedId<'wr'> | null;
  /** The refurbisher that processed the drive (the account), not the device's owner. */
  account_name: string;
  /** The refurbisher's customer, set per device token (v2; absent in v1 content). */
  customer?: string | null;
  /** The lot or job reference, set per device token (v2; absent in v1 content). */
  lot_reference?: string | null;
  /** The asset tag typed or scanned at the kiosk for this drive's machine or bay (v5; absent before). */
  asset_tag?: string | null;
  drive: {
    manufacturer: string | null;
    model: string | null;
    serial: string | null;
    capacity_gb: number | null;
    /** `SSD`, `HDD`, `NVMe`…, read from the source machine's fingerprint. */
    media_type: string | null;
  };
  wipe: {
    /** As the device reported it, e.g. `NIST 800-88 R2 Purge`. */
    method: string | null;
    /** The concrete technique, e.g. `NVMe Sanitize (crypto erase)`. */
    technique: string | null;
    nist_category: NistCategory;
    /** Null for cryptographic and block erase, which have no passes. */
    passes_completed: number | null;
    started_at: string | null;
    completed_at: string | null;
    /**
     * The document the method comes from, e.g. `US DoD 5220.22-M (NISPOM 1995) §8-306`, as the
     * method catalogue named it when the certificate was signed; null for a method it does not
     * list (v4; absent before).
     */
    standard?: string | null;
  };
  tool: {
    name: string | null;
    version: string | null;
    /** Free text from the device: the tools and versions the engine drove. */
    components: string | null;
  };
  verification: {
    /** `Full read-back`, `Sampled (10 %)`… */
    method: string | null;
    result: string | null;
    /** SHA-256 over the re-read verification bytes. */
    hash: string | null;
  };
  operator: string | null;
  source_machine: {
    manufacturer: string | null;
    model: string | null;
    serial: string | null;
    asset_id: PrefixedId<'asset'> | null;
  } | null;
  disposition: string | null;
  markings_removed: boolean | null;
  signed_at: string;
  verify_url: string;
  /**
   * Hex SHA-256 of the DER certificate that signs this certificate's PDFs (PAdES), so the signed
   * record says whose PDF signature counts (v3; absent before). Null where no PDF is made (sandbox).
   */
  pdf_signer_sha256?: string | null;
  /**
   * For a cryptographic erase, what shows the media encryption key was changed (NIST SP 800-88
   * Rev. 2): the erase command as issued and the marker read-back after it, each as the device
   * recorded it, or null where the record holds none. Null for any other technique (v4).
   */
  crypto_erase_evidence?: { command: string | null; marker_readback: string | null } | null;
  /** Whether an independent validation (Rev. 2) of the outcome was made when this was signed (v4). */
  validation_status?: string | null;
}

/** The attachment names both PDFs carry, so `verify-pdf` knows what to look for. */
export const CERTIFICATE_JSON_NAME = 'certificate.json';
export const CERTIFICATE_SIG_NAME = 'certificate.sig';

// Ordered: an explicit word in the method wins, then the strongest technique named anywhere.
const PURGE_TECHNIQUES = /crypto|cryptographic|block[\s_-]*erase|sanitize|secure[\s_-]*erase|enhanced[\s_-]*erase|degauss/i;
const CLEAR_TECHNIQUES = /overwrite|zero|pass(es)?\b|random|dod|gutmann/i;

/**
 * The NIST 800-88 category a wipe reached. An explicit "Purge"/"Clear" in the method string wins,
 * because the engine decided it from the command's completion status; otherwise firmware
 * techniques (crypto/block erase, sanitize, secure erase) are Purge and overwrites are Clear.
 * Anything unrecognised is Clear: claiming less than was done is the safe error on a certificate.
 */
export function deriveNistCategory(method: string | null | undefined, technique: string | null | undefined): NistCategory {
  const m = method ?? '';
  if (/\bpurge\b/i.test(m)) return 'Purge';
  if (/\bclear\b/i.test(m)) return 'Clear';
  // Issue 29: a named method's technique names its IEEE 2883 level; a firmware step that failed
  // its check ("…, after NVMe Sanitize, Crypto Erase failed its check") reached nothing.
  const done = techniqueDone(technique);
  const ieee = /IEEE\s*2883(?:-2022)?\W+(Purge|Clear)\b/i.exec(done)?.[1];
  if (ieee) return ieee.toLowerCase() === 'purge' ? 'Purge' : 'Clear';
  const text = `${m} ${done}`;
  if (PURGE_TECHNIQUES.test(text)) return 'Purge';
  if (CLEAR_TECHNIQUES.test(text)) return 'Clear';
  return 'Clear';
}

/**
 * The technique without a firmware step the engine reports as failed ("…, after X failed its
 * check"): what was done is the part before it. Records before issue 29 name the category in
 * their method, so this never changes the category of a certificate already issued.
 */
export function techniqueDone(technique: string | null | undefined): string {
  return (technique ?? '').replace(/,?\s*after\b[^;]*\bfailed\b.*$/i, '');
}

/**
 * Deterministic JSON (RFC 8785 style for the values we use): keys sorted by UTF-16 code units,
 * no whitespace. Throws on values JSON cannot carry faithfully, since a signature over a
 * silently dropped `undefined` would verify a document that says something else.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalize non-finite number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) throw new TypeError(`cannot canonicalize undefined at key "${key}"`);
        return `${JSON.stringify(key)}:${canonicalJson(v)}`;
      });
    return `{${entries.join(',')}}`;
  }
  throw new TypeError(`cannot canonicalize a ${typeof value}`);
}

/** The exact bytes that are signed and attached to the PDFs: canonical JSON in UTF-8. */
export function canonicalize(content: CertificateContent): Uint8Array {
  return new Uint8Array(Buffer.from(canonicalJson(content), 'utf8'));
}

function assertEd25519(key: KeyObject, type: 'private' | 'public'): void {
  if (key.type !== type || key.asymmetricKeyType !== 'ed25519') {
    throw new TypeError(`expected an Ed25519 ${type} key, got ${key.asymmetricKeyType ?? 'none'} ${key.type}`);
  }
}

/** Ed25519 signature over {@link canonicalize}(content), base64. */
export function signContent(privateKey: KeyObject, content: CertificateContent): string {
  assertEd25519(privateKey, 'private');
  // Ed25519 hashes internally; node requires `null` as the digest for it.
  return sign(null, canonicalize(content), privateKey).toString('base64');
}

/**
 * True when `signatureBase64` is a valid Ed25519 signature of the canonical content under
 * `publicKey`. A malformed signature is an answer ("not valid"), not an error.
 */
export function verifyContent(publicKey: KeyObject, content: CertificateContent, signatureBase64: string): boolean {
  assertEd25519(publicKey, 'public');
  let bytes: Uint8Array;
  try {
    bytes = canonicalize(content);
  } catch {
    return false; // parsed JSON that cannot be canonicalized was not what we signed
  }
  return verifyBytes(publicKey, bytes, signatureBase64);
}

/** Verifies a signature over raw canonical bytes, as read back from a PDF attachment. */
export function verifyBytes(publicKey: KeyObject, bytes: Uint8Array, signatureBase64: string): boolean {
  assertEd25519(publicKey, 'public');
  const trimmed = signatureBase64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return false;
  const signature = Buffer.from(trimmed, 'base64');
  if (signature.length !== 64) return false;
  return verify(null, bytes, publicKey, signature);
}

/**
 * A short, human-comparable fingerprint of a signature: SHA-256 of its bytes, first 16 bytes
 * in hex groups of four. Printed on the certificate so a reader can match paper to attachment.
 */
export function signatureFingerprint(signatureBase64: string): string {
  const digest = createHash('sha256').update(Buffer.from(signatureBase64.trim(), 'base64')).digest('hex');
  return (digest.slice(0, 32).toUpperCase().match(/.{4}/g) ?? []).join(' ');
}

/** A key id: 16 lowercase hex digits (see adapters/certificate-keyring.ts). */
const KEY_ID = /^[0-9a-f]{16}$/;

/**
 * The stored and embedded signature: `<key id>.<base64 Ed25519 signature>`, so a verifier knows
 * which key of the keyring signed. Base64 has no `.`, so the split is unambiguous.
 */
export const keyedSignature = (keyId: string, signatureBase64: string): string => `${keyId}.${signatureBase64}`;

/**
 * Splits a stored or embedded signature. One made before key ids existed is a bare base64
 * signature (`keyId` undefined); a malformed key id leaves `signature` empty, which never verifies.
 */
export function parseKeyedSignature(value: string): { keyId: string | undefined; signature: string } {
  const trimmed = value.trim();
  const dot = trimmed.indexOf('.');
  if (dot === -1) return { keyId: undefined, signature: trimmed };
  const keyId = trimmed.slice(0, dot);
  return KEY_ID.test(keyId) ? { keyId, signature: trimmed.slice(dot + 1) } : { keyId, signature: '' };
}

/**
 * The public keys a signature may be checked with: the one its key id names (none when the id is
 * unknown: fail closed), or, for a signature made before key ids existed (`undefined`), every key
 * on record. Asynchronous: the keyring lives in the database, where another process may add keys.
 */
export type PublicKeyLookup = (keyId: string | undefined) => Promise<readonly KeyObject[]>;

/** Whether `signature` (keyed or legacy) verifies `bytes` under a key `publicKeys` offers for it. */
export async function verifyKeyedBytes(publicKeys: PublicKeyLookup, bytes: Uint8Array, signature: string): Promise<boolean> {
  const parsed = parseKeyedSignature(signature);
  if (parsed.signature === '') return false;
  return (await publicKeys(parsed.keyId)).some((key) => verifyBytes(key, bytes, parsed.signature));
}
