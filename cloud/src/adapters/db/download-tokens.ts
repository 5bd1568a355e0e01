import { devicePrivateKey, signDeviceToken, type CertificateLanguage, type Product } from '@erasure/shared';
import type { Clock } from '../clock.js';
import type { SqlRunner } from '../sql/database.js';
import type { TokenTerms } from '../../domain/devices/token-terms.js';
import { createToken } from './tokens.js';

export interface DownloadDeps {
  db: SqlRunner;
  clock: Clock;
  /** base64 seed from DEVICE_TOKEN_PRIVATE_KEY; without it minting is unavailable. */
  deviceTokenPrivateKey: string | undefined;
}

/**
 * Mints the device token an image download embeds, for the signed-in user (spec 1: in the real
 * system tokens are minted by image downloads). The row is the authority; the JWS only proves
 * the image was issued by us. Quota and lifetime are the account's terms (token-terms.ts).
 */
export async function mintDownloadToken(
  deps: DownloadDeps,
  input: {
    accountId: number;
    accountPublicId: string;
    userEmail: string;
    product: Product;
    terms: Pick<TokenTerms, 'quotaLimit' | 'lifetimeDays'>;
    /** The token's certificate language (issue 31 item 7 part B); null or absent: the account's. */
    certificateLanguage?: CertificateLanguage | null;
  },
): Promise<{ token: string; jti: string; prefix_id: string; exp: number } | undefined> {
  if (!deps.deviceTokenPrivateKey) return undefined;
  const key = devicePrivateKey(deps.deviceTokenPrivateKey);
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const exp = iat + input.terms.lifetimeDays * 86_400;
  const row = await createToken(deps.db, {
    accountId: input.accountId,
    product: input.product,
    quotaLimit: input.terms.quotaLimit,
    userEmail: input.userEmail,
    expiresAt: new Date(exp * 1000).toISOString(),
    certificateLanguage: input.certificateLanguage ?? null,
    now: deps.clock.now().toISOString(),
  });
  const token = await signDeviceToken(key, { sub: input.accountPublicId, jti: row.jti, issuedAt: iat, expiresAt: exp, product: input.product });
  return { token, jti: row.jti, prefix_id: row.prefix_id, exp };
}

/**
 * Revokes the token of a download that never fully reached the client: no one holds a working
 * copy of it, so it must not work (issue 20, item 6). Only an active or suspended token moves;
 * a staff kill switch (`disabled`) stays as it is.
 */
export async function revokeUnfinishedDownloadToken(db: SqlRunner, jti: string, now: string): Promise<void> {
  await db.run(
    `UPDATE license_tokens SET status = 'revoked', revoked_at = COALESCE(revoked_at, @now), updated_at = @now
      WHERE jti = @jti AND status IN ('active', 'suspended')`,
    { jti, now },
  );
}
