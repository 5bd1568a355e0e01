import { generateKeyPairSync } from 'node:crypto';
import { signDeviceToken } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { productOfToken, stationTokenRefusal } from './token-product.js';

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

describe('a station on its device token', () => {
  it('starts on a hotswap token', async () => {
    expect(stationTokenRefusal(await mint('hotswap'), '/etc/erasure/device-token')).toBeUndefined();
  });

  it('refuses an engine token (or one without the claim), saying that nothing would be certified and which token to use', async () => {
    for (const token of [await mint('engine'), await mint()]) {
      expect(stationTokenRefusal(token, '/etc/erasure/device-token')).toMatch(/^this device token was minted for the engine product, so no drive erased here would be certified: use a hotswap device token/);
    }
  });

  it('refuses no token at all, naming the file it looked in', () => {
    expect(stationTokenRefusal(undefined, '/etc/erasure/device-token')).toBe('there is no device token in /etc/erasure/device-token: a station needs a hotswap device token');
    expect(stationTokenRefusal('  \n', '/x')).toMatch(/^there is no device token in \/x/);
  });
});
