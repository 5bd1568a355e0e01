import type { SqlDatabase, SqlRunner } from '../sql/database.js';

/**
 * The deployment's keys in the database (migration 009 / postgres 002), shared by every serve,
 * worker and CLI process on it. Writes that create a key are `INSERT … ON CONFLICT DO NOTHING`
 * followed by a read: when several processes start together on a fresh database, one insert
 * wins on either engine and every process reads back that one.
 */

/** A key on record as `certificate-public-key --all` lists it: never its private half. */
export interface SigningKeyRecord {
  key_id: string;
  /** Base64 raw 32-byte Ed25519 public key. */
  public_key: string;
  added_at: string;
  /** When a rotation replaced it; null for the current key (and for keys from CERTIFICATE_SIGNING_KEY). */
  retired_at: string | null;
}

/** A row to record: `private_seed` only for the generated key that signs now. */
export interface NewSigningKey extends SigningKeyRecord {
  private_seed: string | null;
}

/** Stores `value` under `name` unless a value is there already; answers the stored one (the winner of a race). */
export async function putSecretOnce(db: SqlRunner, name: string, value: string, now: string): Promise<string> {
  await db.run(
    `INSERT INTO deployment_secrets (name, value, created_at) VALUES (@name, @value, @now) ON CONFLICT DO NOTHING`,
    { name, value, now },
  );
  return (await db.one<{ value: string }>('SELECT value FROM deployment_secrets WHERE name = @name', { name }))!.value;
}

/**
 * Records a key unless its id is on record, or (for a row with a private seed and no retired_at)
 * another stored key is current already; answers whether it went in.
 */
export async function insertSigningKey(db: SqlRunner, key: NewSigningKey): Promise<boolean> {
  const changed = await db.run(
    `INSERT INTO certificate_signing_keys (key_id, public_key, private_seed, added_at, retired_at)
     VALUES (@key_id, @public_key, @private_seed, @added_at, @retired_at) ON CONFLICT DO NOTHING`,
    { ...key },
  );
  return changed > 0;
}

/** The stored key that signs now, with its seed; undefined before the first one is made. */
export function readCurrentSigningSeed(db: SqlRunner): Promise<{ key_id: string; private_seed: string } | undefined> {
  return db.one(
    `SELECT key_id, private_seed FROM certificate_signing_keys WHERE retired_at IS NULL AND private_seed IS NOT NULL`,
  );
}

/** Every key on record, oldest first: retired ones verify what they signed before a rotation. */
export function listSigningKeys(db: SqlRunner): Promise<SigningKeyRecord[]> {
  return db.many('SELECT key_id, public_key, added_at, retired_at FROM certificate_signing_keys ORDER BY added_at, key_id');
}

/**
 * Replaces the current stored key with `next` (and the stored PDF signer with `nextPdf`) in one transaction: the old key is retired (its
 * private half dropped: it never signs again) and the new one inserted, so at every moment the
 * key that signs has its public half on record. Answers the retired key's id. Fails when no stored
 * key was current, which on PostgreSQL is also what a rotation running at the same time causes
 * (its commit retired the row this one waited on): nothing changed then, and it can be re-run.
 */
export function replaceCurrentSigningKey(db: SqlDatabase, next: NewSigningKey, nextPdf?: NewPdfSigner): Promise<string> {
  return db.transaction(async (tx) => {
    const retired = await tx.one<{ key_id: string }>(
      `UPDATE certificate_signing_keys SET retired_at = @now, private_seed = NULL
        WHERE retired_at IS NULL AND private_seed IS NOT NULL RETURNING key_id`,
      { now: next.added_at },
    );
    if (!retired) throw new Error('no current certificate signing key to retire (another rotation ran at the same time?): run it again');
    if (!(await insertSigningKey(tx, next))) throw new Error(`certificate key ${next.key_id} is already on record`);
    // The PDF signer rotates with it, after the key (whose retirement decides a race): the stored
    // one is retired and the new one current.
    if (nextPdf) {
      await retireCurrentPdfSigner(tx, next.added_at);
      if (!(await insertPdfSigner(tx, nextPdf))) throw new Error(`PDF signing certificate ${nextPdf.fingerprint} is already on record`);
    }
    return retired.key_id;
  });
}

/** A PDF signing certificate on record (migration 010 / postgres 003): base64 DER, never its key. */
export interface PdfSignerRecord {
  fingerprint: string;
  certificate: string;
  added_at: string;
  retired_at: string | null;
}

/** A row to record: `private_key` (base64 PKCS#8) only for the generated signer that signs now. */
export interface NewPdfSigner extends PdfSignerRecord {
  private_key: string | null;
}

/** Records a PDF signer unless it is on record or another stored one is current; answers whether it went in. */
export async function insertPdfSigner(db: SqlRunner, signer: NewPdfSigner): Promise<boolean> {
  const changed = await db.run(
    `INSERT INTO certificate_pdf_signers (fingerprint, certificate, private_key, added_at, retired_at)
     VALUES (@fingerprint, @certificate, @private_key, @added_at, @retired_at) ON CONFLICT DO NOTHING`,
    { ...signer },
  );
  return changed > 0;
}

/** The stored PDF signer that signs now, with its key; undefined before the first one is made. */
export function readCurrentPdfSigner(db: SqlRunner): Promise<{ fingerprint: string; certificate: string; private_key: string } | undefined> {
  return db.one(
    `SELECT fingerprint, certificate, private_key FROM certificate_pdf_signers WHERE retired_at IS NULL AND private_key IS NOT NULL`,
  );
}

/** Every PDF signing certificate on record, oldest first. */
export function listPdfSigners(db: SqlRunner): Promise<PdfSignerRecord[]> {
  return db.many('SELECT fingerprint, certificate, added_at, retired_at FROM certificate_pdf_signers ORDER BY added_at, fingerprint');
}

/** Retires the current stored PDF signer (dropping its key) inside the caller's transaction; answers its fingerprint. */
export async function retireCurrentPdfSigner(tx: SqlRunner, now: string): Promise<string | undefined> {
  const retired = await tx.one<{ fingerprint: string }>(
    `UPDATE certificate_pdf_signers SET retired_at = @now, private_key = NULL
      WHERE retired_at IS NULL AND private_key IS NOT NULL RETURNING fingerprint`,
    { now },
  );
  return retired?.fingerprint;
}
