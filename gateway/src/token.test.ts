import { describe, expect, it } from 'vitest';
import { devicePrivateKey, devicePublicKey, generateDeviceKeyPair, signDeviceToken } from '@erasure/shared';
import { authenticateDevice, bearerOf } from './token.js';

describe('bearerOf', () => {
  it.each([
    ['Bearer a.b.c', 'a.b.c'],
    ['bearer a.b.c', 'a.b.c'],
    ['BEARER   a.b.c', 'a.b.c'],
  ])('reads the credential of %j', (header, token) => {
    expect(bearerOf(header)).toBe(token);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic a.b.c', 'Bearer a.b.c extra', 'Token a.b.c', `Bearer ${'x'.repeat(5000)}`])(
    'finds no credential in %j',
    (header) => {
      expect(bearerOf(header)).toBeUndefined();
    },
  );
});

describe('authenticateDevice', () => {
  const pair = generateDeviceKeyPair();
  const key = devicePublicKey(pair.publicKey);
  const mint = (expiresAt: number) => signDeviceToken(devicePrivateKey(pair.privateKey), { sub: 'acct_1', jti: 'j-1', expiresAt });

  it('returns the token identity for a valid bearer', async () => {
    const token = await mint(Math.floor(Date.now() / 1000) + 60);
    expect(await authenticateDevice(key, `Bearer ${token}`, new Date())).toEqual({ ok: true, sub: 'acct_1', jti: 'j-1' });
  });

  it('is unauthorized without a key, whatever the token', async () => {
    const token = await mint(Math.floor(Date.now() / 1000) + 60);
    expect(await authenticateDevice(undefined, `Bearer ${token}`, new Date())).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('judges expiry by the injected clock, with 60 s leeway', async () => {
    const exp = 2_000_000_000;
    const token = await mint(exp);
    expect((await authenticateDevice(key, `Bearer ${token}`, new Date((exp + 59) * 1000))).ok).toBe(true);
    expect((await authenticateDevice(key, `Bearer ${token}`, new Date((exp + 61) * 1000))).ok).toBe(false);
  });
});
