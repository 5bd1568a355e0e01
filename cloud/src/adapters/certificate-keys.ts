import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { devicePrivateKey, devicePublicKey, generateDeviceKeyPair } from '@erasure/shared';
import type { PublicKeyLookup } from '../domain/certificates/certificate-content.js';
import {
  certificateFingerprint,
  generateSelfSignedPdfSigner,
  pdfSignerFromPem,
  type PdfSigner,
} from '../domain/certificates/pdf-signing-certificate.js';
import { certificateKeyId, rawPublicKeyBase64, type SigningKey } from './certificate-keyring.js';
import { systemClock, type Clock } from './clock.js';
import {
  insertPdfSigner,
  insertSigningKey,
  listPdfSigners,
  listSigningKeys,
  readCurrentPdfSigner,
  putSecretOnce,
  readCurrentSigningSeed,
  replaceCurrentSigningKey,
  type NewPdfSigner,
  type NewSigningKey,
} from './db/deployment-keys.js';
import { readLegacyKeyFiles, type LegacyKeyFiles } from './legacy-key-files.js';
import type { SqlDatabase, SqlRunner } from './sql/database.js';

/** The name of the presigned-URL HMAC key in deployment_secrets (and of its legacy file). */
const URL_SECRET = 'url-signing-secret';

/** The keys behind certificates: Ed25519 for the signed content, HMAC for presigned URLs. */
export interface CertificateKeys {
  /** The signing key as loaded (the sandbox signs with it); {@link signing} follows rotations. */
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Base64 of the raw 32-byte public key, as `certificate-public-key` publishes it. */
  publicKeyBase64: string;
  keyId: string;
  /**
   * The key to sign with now, read from the database on each call, so a rotation committed by
   * any process on any host is followed by the next certificate, without a restart or a
   * cache that could sign with a retired key. One point query per certificate is nothing beside
   * rendering its PDFs. Pass the transaction the caller is in (a statement on the database
   * itself would be refused inside it); the default is the database.
   */
  signing: (runner?: SqlRunner) => Promise<SigningKey>;
  /** Public keys for a signature's key id (all on record for a signature without one). */
  publicKeys: PublicKeyLookup;
  /** Keys the HMAC of presigned `/files/…` URLs; written once, never rotated, so held as loaded. */
  urlSigningSecret: Buffer;
  /**
   * The PDF signer (PAdES) to sign with now: the CA-issued one configured, or the stored one read
   * per call like {@link signing} (created on first use), so a rotation is followed.
   */
  pdfSigning: (runner?: SqlRunner) => Promise<PdfSigner>;
  /** Whether a certificate (by {@link certificateFingerprint}) ever signed this deployment's PDFs. */
  pdfCertificateOnRecord: (fingerprint: string) => Promise<boolean>;
}

/** A CA-issued PDF signing certificate (PEM, chain after it) and its key (PEM), as configured. */
export interface ConfiguredPdfSigner {
  certificatePem: string;
  privateKeyPem: string;
}

/** What {@link loadCertificateKeys} needs. */
export interface CertificateKeysInput {
  db: SqlDatabase;
  /** DATA_DIR: its `keys/` folder is imported when an older release left keys there. */
  dataDir: string;
  /** CERTIFICATE_SIGNING_KEY (base64 raw seed): signs instead of the stored key when set. */
  signingKeyBase64?: string | undefined;
  /** CERTIFICATE_PDF_CERTIFICATE + CERTIFICATE_PDF_KEY: signs PDFs instead of the stored self-signed one. */
  pdfSigner?: ConfiguredPdfSigner | undefined;
  clock?: Clock;
}

/**
 * The certificate keys of a deployment, from its database, so every process on it (serve
 * instances and workers on any host, the CLI) signs and verifies with the same keys. On first
 * use the keys are created there: a fresh Ed25519 key and URL secret, or those an older release
 * left in `${DATA_DIR}/keys` (see {@link importLegacyKeys}). With CERTIFICATE_SIGNING_KEY set,
 * that key signs and its public half is recorded, so certificates it signed still verify after
 * the configured key changes.
 */
export async function loadCertificateKeys(input: CertificateKeysInput): Promise<CertificateKeys> {
  const { db } = input;
  const now = () => (input.clock ?? systemClock).now().toISOString();
  const legacy = readLegacyKeyFiles(join(input.dataDir, 'keys'));
  if (legacy) await importLegacyKeys(db, legacy, now());
  const urlSecret = await putSecretOnce(db, URL_SECRET, randomBytes(32).toString('hex'), now());

  const configured = input.signingKeyBase64 ? devicePrivateKey(input.signingKeyBase64) : undefined;
  // A configured key is recorded by its public half only: its seed stays in the configuration.
  if (configured) await insertSigningKey(db, { ...publicRecord(configured, now()), private_seed: null });
  const loaded = configured ?? devicePrivateKey((await currentOrFirstSeed(db, now())).private_seed);
  const publicKey = createPublicKey(loaded);
  const fixed: SigningKey | undefined = configured && { keyId: certificateKeyId(configured), privateKey: configured };
  const configuredPdf = input.pdfSigner && pdfSignerFromPem(input.pdfSigner.certificatePem, createPrivateKey(input.pdfSigner.privateKeyPem));
  if (configuredPdf) await insertPdfSigner(db, { ...pdfRecord(configuredPdf, now()), private_key: null });
  else await currentOrFirstPdfSigner(db, now());
  return {
    privateKey: loaded,
    publicKey,
    publicKeyBase64: rawPublicKeyBase64(publicKey),
    keyId: certificateKeyId(publicKey),
    signing: fixed ? async () => fixed : storedSigningKey(db),
    publicKeys: await publicKeysOnRecord(db),
    urlSigningSecret: Buffer.from(urlSecret, 'hex'),
    pdfSigning: configuredPdf ? async () => configuredPdf : storedPdfSigner(db),
    pdfCertificateOnRecord: await pdfCertificatesOnRecord(db),
  };
}

/**
 * A fresh signing key for new certificates (`rotate-certificate-key`): one transaction retires
 * the current stored key and records the new one. Every process picks it up with its next
 * certificate; the old public key stays on record.
 */
export async function rotateSigningKey(db: SqlDatabase, now: string): Promise<{ key_id: string; retired_key_id: string; public_key: string }> {
  const next = freshKey(now);
  // Only a deployment with a stored PDF signer rotates it (a configured one stays as configured).
  const pdf = (await readCurrentPdfSigner(db)) ? freshPdfSigner(now) : undefined;
  const retired = await replaceCurrentSigningKey(db, next, pdf);
  return { key_id: next.key_id, retired_key_id: retired, public_key: next.public_key };
}

/** The current stored key, creating the first one when there is none (the race's winner for all). */
async function currentOrFirstSeed(db: SqlRunner, now: string) {
  const current = await readCurrentSigningSeed(db);
  if (current) return current;
  await insertSigningKey(db, freshKey(now));
  return (await readCurrentSigningSeed(db))!;
}

/** The current stored PDF signer, creating the first one when there is none (the race's winner for all). */
async function currentOrFirstPdfSigner(db: SqlRunner, now: string) {
  const current = await readCurrentPdfSigner(db);
  if (current) return current;
  await insertPdfSigner(db, freshPdfSigner(now));
  return (await readCurrentPdfSigner(db))!;
}

/** A generated self-signed PDF signer as a row: current, holding its key. */
function freshPdfSigner(now: string): NewPdfSigner {
  const signer = generateSelfSignedPdfSigner({ commonName: 'Erasure Cloud certificate signing', now: new Date(now) });
  return { ...pdfRecord(signer, now), private_key: Buffer.from(signer.privateKey).toString('base64') };
}

const pdfRecord = (signer: PdfSigner, now: string) => ({
  fingerprint: certificateFingerprint(signer.certificates[0]!),
  certificate: Buffer.from(signer.certificates[0]!).toString('base64'),
  added_at: now,
  retired_at: null,
});

/** Reads the current stored PDF signer per call; the decoded signer is kept while it stays the same. */
function storedPdfSigner(db: SqlDatabase): (runner?: SqlRunner) => Promise<PdfSigner> {
  let last: { fingerprint: string; signer: PdfSigner } | undefined;
  return async (runner = db) => {
    const row = await readCurrentPdfSigner(runner);
    if (!row) throw new Error('no current PDF signing certificate on record');
    if (last?.fingerprint !== row.fingerprint) {
      const signer = { certificates: [new Uint8Array(Buffer.from(row.certificate, 'base64'))], privateKey: new Uint8Array(Buffer.from(row.private_key, 'base64')) };
      last = { fingerprint: row.fingerprint, signer };
    }
    return last.signer;
  };
}

/** Fingerprints of every PDF signing certificate on record, read again on a miss (one added since). */
async function pdfCertificatesOnRecord(db: SqlRunner): Promise<(fingerprint: string) => Promise<boolean>> {
  let held = new Set<string>();
  const reload = async () => {
    held = new Set((await listPdfSigners(db)).map((s) => s.fingerprint));
  };
  await reload();
  return async (fingerprint) => {
    if (!held.has(fingerprint)) await reload();
    return held.has(fingerprint);
  };
}

/** A generated key as a row: current, holding its seed. */
function freshKey(now: string): NewSigningKey {
  const seed = generateDeviceKeyPair().privateKey;
  return { ...publicRecord(devicePrivateKey(seed), now), private_seed: seed };
}

const publicRecord = (key: KeyObject, now: string) => ({
  key_id: certificateKeyId(key),
  public_key: rawPublicKeyBase64(key),
  added_at: now,
  retired_at: null,
});

/**
 * Records what an older release kept in `${DATA_DIR}/keys`, so an upgraded deployment still
 * verifies the certificates those keys signed and its outstanding presigned URLs stay valid.
 * It runs whenever the files are there, not only on an empty database: hosts that had separate
 * DATA_DIRs signed with different keys, and each host's keys must be recorded, whichever host
 * starts first. Every insert is ON CONFLICT DO NOTHING, so repeating it changes nothing and a
 * key rotated away in the database is never brought back. The legacy signing key becomes the
 * current one only when no stored key is current yet; otherwise its public half is recorded as
 * retired now. The URL secret of the first host to import wins (one secret per deployment).
 */
export async function importLegacyKeys(db: SqlDatabase, legacy: LegacyKeyFiles, now: string): Promise<void> {
  await db.transaction(async (tx) => {
    const seed = legacy.seed === undefined ? undefined : { base64: legacy.seed, key: devicePrivateKey(legacy.seed) };
    const seedKeyId = seed && certificateKeyId(seed.key);
    for (const entry of legacy.keyring) {
      if (entry.key_id !== seedKeyId) await insertSigningKey(tx, { ...entry, private_seed: null });
    }
    if (seed) {
      const asFiled = legacy.keyring.find((k) => k.key_id === seedKeyId);
      const current = { ...publicRecord(seed.key, asFiled?.added_at ?? now), private_seed: seed.base64 };
      if (!(await insertSigningKey(tx, current))) await insertSigningKey(tx, { ...current, private_seed: null, retired_at: now });
    }
    if (legacy.urlSecret !== undefined) await putSecretOnce(tx, URL_SECRET, legacy.urlSecret, now);
  });
}

/** Reads the current stored key per call; the KeyObject is kept while its id stays the same. */
function storedSigningKey(db: SqlDatabase): (runner?: SqlRunner) => Promise<SigningKey> {
  let last: SigningKey | undefined;
  return async (runner = db) => {
    const row = await readCurrentSigningSeed(runner);
    if (!row) throw new Error('no current certificate signing key on record');
    if (last?.keyId !== row.key_id) last = { keyId: row.key_id, privateKey: devicePrivateKey(row.private_seed) };
    return last;
  };
}

/**
 * The public keys on record, held in memory and read again from the database when a signature
 * names a key id not held (a key another process added since), or names none (a signature made
 * before key ids, checked against every key). An unknown id still answers no key: fail closed.
 */
async function publicKeysOnRecord(db: SqlRunner): Promise<PublicKeyLookup> {
  let held = new Map<string, KeyObject>();
  const reload = async () => {
    held = new Map((await listSigningKeys(db)).map((k) => [k.key_id, devicePublicKey(k.public_key)]));
  };
  await reload();
  return async (keyId) => {
    if (keyId === undefined || !held.has(keyId)) await reload();
    if (keyId === undefined) return [...held.values()];
    const key = held.get(keyId);
    return key ? [key] : [];
  };
}
