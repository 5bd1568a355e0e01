import { createHash } from 'node:crypto';
import type { SqlRunner } from '../sql/database.js';
import type { ObjectStore } from '../objects/local-store.js';
import { checkLogo, type Branding, type BrandingDetails, type LogoType } from '../../domain/branding/branding.js';

/**
 * Where an account's branding lives (migration 026 / PostgreSQL 019): one row per account with
 * its company details and the object-store key of its logo, whose bytes are in the store.
 */

export interface BrandingRow {
  details: BrandingDetails | null;
  logo: { key: string; type: LogoType; sha256: string } | null;
  updated_at: string;
}

interface Raw {
  company_name: string | null;
  address_lines: string;
  contact: string | null;
  logo_key: string | null;
  logo_type: LogoType | null;
  logo_sha256: string | null;
  updated_at: string;
}

export async function findBranding(db: SqlRunner, accountId: number): Promise<BrandingRow | undefined> {
  const row = await db.one<Raw>(
    'SELECT company_name, address_lines, contact, logo_key, logo_type, logo_sha256, updated_at FROM account_brandings WHERE account_id = @accountId',
    { accountId },
  );
  if (!row) return undefined;
  return {
    details: row.company_name === null ? null : { company_name: row.company_name, address_lines: JSON.parse(row.address_lines) as string[], contact: row.contact },
    logo: row.logo_key && row.logo_type && row.logo_sha256 ? { key: row.logo_key, type: row.logo_type, sha256: row.logo_sha256 } : null,
    updated_at: row.updated_at,
  };
}

export async function saveBrandingDetails(db: SqlRunner, input: { accountId: number; details: BrandingDetails; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO account_brandings (account_id, company_name, address_lines, contact, updated_by_user_id, updated_at)
     VALUES (@account, @name, @lines, @contact, @user, @now)
     ON CONFLICT (account_id) DO UPDATE SET company_name = excluded.company_name, address_lines = excluded.address_lines,
       contact = excluded.contact, updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, name: input.details.company_name, lines: JSON.stringify(input.details.address_lines), contact: input.details.contact, user: input.userId, now: input.now },
  );
}

/** The object key of an account's logo: named by its hash, so a new logo never tears an old one being read. */
export const logoKey = (accountPublicId: string, sha256: string, type: LogoType) => `branding/${accountPublicId}/logo-${sha256}.${type === 'png' ? 'png' : 'jpg'}`;

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Points the account's branding at a logo already put in the store. */
export async function saveBrandingLogo(db: SqlRunner, input: { accountId: number; key: string; type: LogoType; sha256: string; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO account_brandings (account_id, logo_key, logo_type, logo_sha256, updated_by_user_id, updated_at)
     VALUES (@account, @key, @type, @sha, @user, @now)
     ON CONFLICT (account_id) DO UPDATE SET logo_key = excluded.logo_key, logo_type = excluded.logo_type, logo_sha256 = excluded.logo_sha256,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, key: input.key, type: input.type, sha: input.sha256, user: input.userId, now: input.now },
  );
}

export async function removeBrandingLogo(db: SqlRunner, input: { accountId: number; userId: number | null; now: string }): Promise<void> {
  await db.run(
    'UPDATE account_brandings SET logo_key = NULL, logo_type = NULL, logo_sha256 = NULL, updated_by_user_id = @user, updated_at = @now WHERE account_id = @account',
    { account: input.accountId, user: input.userId, now: input.now },
  );
}

/** "Remove branding": the row goes, so the account's next certificates carry the product's header. */
export async function removeBranding(db: SqlRunner, accountId: number): Promise<void> {
  await db.run('DELETE FROM account_brandings WHERE account_id = @accountId', { accountId });
}

/**
 * The branding a certificate is drawn with: the details and the logo read back from the store and
 * checked again (a logo that is gone or altered is left off rather than drawn wrong). Undefined
 * when the account has none.
 */
export async function loadBranding(row: BrandingRow | undefined, store: ObjectStore): Promise<Branding | null> {
  if (!row) return null;
  let logo = null;
  if (row.logo) {
    const bytes = await store.get(row.logo.key);
    const checked = bytes && sha256Hex(bytes) === row.logo.sha256 ? checkLogo(bytes) : undefined;
    if (checked?.ok) logo = checked.value;
  }
  if (!row.details && !logo) return null;
  return { details: row.details, logo };
}
