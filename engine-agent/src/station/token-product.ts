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

/**
 * Why a station must not start on this device token, or undefined when it may: only a hotswap
 * token checks in once per drive with job ids the cloud certifies bay by bay. An engine token's
 * results would be stored uncertified while the quota is spent (issue 28 item 7).
 */
export function stationTokenRefusal(token: string | undefined, tokenFile: string): string | undefined {
  if (token === undefined || token.trim() === '') return `there is no device token in ${tokenFile}: a station needs a hotswap device token`;
  if (productOfToken(token) === 'hotswap') return undefined;
  return 'this device token was minted for the engine product, so no drive erased here would be certified: use a hotswap device token (the web app’s Downloads page, product hotswap, or erasure-cloud admin mint-device-token --product hotswap)';
}
