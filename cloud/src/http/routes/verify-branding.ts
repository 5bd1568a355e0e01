import { findBranding, loadBranding } from '../../adapters/db/account-branding.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { VerifyPageExtras } from './verify-page.js';

/** The issuing account's branding for its verify page (issue 31 item 7); null when it set none. */
export async function issuerBranding(db: SqlRunner, store: ObjectStore, accountId: number): Promise<VerifyPageExtras['issuer']> {
  const branding = await loadBranding(await findBranding(db, accountId), store);
  if (!branding) return null;
  return {
    companyName: branding.details?.company_name ?? null,
    addressLines: branding.details?.address_lines ?? [],
    contact: branding.details?.contact ?? null,
    logo: branding.logo && { type: branding.logo.type, bytes: branding.logo.bytes },
  };
}
