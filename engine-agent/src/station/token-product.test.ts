import { generateKeyPairSync } from 'node:crypto';
import { signDeviceToken } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { productOfToken } from './token-product.js';

const key = generateKeyPairSync('ed25519').privateKey;
const mint = (product?: 'engine' | 'hotswap') => signDeviceToken(key, { sub: 'acct_1', jti: 'j-1', expiresAt: Math.floor(Date.now() / 1000) + 3600, ...(product ? { product } : {}) });

describe('the product of a device token', () => {
  it('is hotswap for a token minted for a hotswap station', async () => {
    expect(productOfToken(await mint('hotswap'))).toBe('hotswap');
  });

  it('is engine for an engine token, a token without the claim, or no token', async () => {
    expect(productOfToken(await mint('engine'))).toBe('engine');
    expect(productOfToken(await mint())).toBe('engine');
    expect(productOfToken(undefined)).toBe('engine');
    expect(productOfToken('not-a-token')).toBe('engine');
    expect(productOfToken('a.!!!.c')).toBe('engine');
  });
});
