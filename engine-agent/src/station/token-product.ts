import type { Product } from '@erasure/shared';

/**
 * The `product` claim of a device token, read without verifying it: it only picks the mode the
 * agent starts in (a hotswap token starts the station). The gateway verifies the token and the
 * cloud meters every check-in from the token's row, so a forged claim gains nothing.
 * `engine` for a token without the claim, or one that is not a JWS at all.
 */
export function productOfToken(token: string | undefined): Product {
  const payload = token?.trim().split('.')[1];
  if (!payload) return 'engine';
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { product?: unknown };
    return claims.product === 'hotswap' ? 'hotswap' : 'engine';
  } catch {
    return 'engine';
  }
}
