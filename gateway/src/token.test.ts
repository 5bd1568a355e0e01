import { describe, expect, it } from 'vitest';
import { devicePrivateKey, devicePublicKey, generateDeviceKeyPair, signDeviceToken } from '@erasure/shared';
import { authenticateDevice, bearerOf, createDeviceAuthenticator } from './token.js';

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
    expect(await authenticateDevice(key, `Bearer ${token}`, new Date())).toEqual({ ok: true, sub: 'acct_1', jti: 'j-1', exp: expect.any(Number) });
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

describe('createDeviceAuthenticator', () => {
  const pair = generateDeviceKeyPair();
  const key = devicePublicKey(pair.publicKey);
  const exp = 2_000_000_000;
  const mint = (jti: string) => signDeviceToken(devicePrivateKey(pair.privateKey), { sub: 'acct_1', jti, expiresAt: exp });
  const at = (seconds: number) => new Date(seconds * 1000);

  it('answers a remembered token like a fresh check', async () => {
    const sut = createDeviceAuthenticator(key);
    const header = `Bearer ${await mint('j-1')}`;
    const first = await sut(header, at(exp - 10));
    expect(await sut(header, at(exp - 5))).toEqual(first);
    expect(first).toEqual({ ok: true, sub: 'acct_1', jti: 'j-1', exp });
  });

  it('still enforces expiry, with 60 s leeway, on a remembered token', async () => {
    const sut = createDeviceAuthenticator(key);
    const header = `Bearer ${await mint('j-1')}`;
    expect((await sut(header, at(exp - 10))).ok).toBe(true);
    expect((await sut(header, at(exp + 59))).ok).toBe(true);
    expect(await sut(header, at(exp + 61))).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('never remembers a failure and never answers without a key', async () => {
    const token = await mint('j-1');
    const forged = `${token.slice(0, -4)}AAAA`;
    const sut = createDeviceAuthenticator(key);
    expect((await sut(`Bearer ${forged}`, at(exp - 10))).ok).toBe(false);
    expect((await sut(`Bearer ${token}`, at(exp - 10))).ok).toBe(true);
    expect(await createDeviceAuthenticator(undefined)(`Bearer ${token}`, at(exp - 10))).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('keeps answering correctly past its size bound', async () => {
    const sut = createDeviceAuthenticator(key, 2);
    const tokens = await Promise.all(['a', 'b', 'c'].map(mint));
    for (const token of tokens) await sut(`Bearer ${token}`, at(exp - 10));
    for (const token of tokens) expect((await sut(`Bearer ${token}`, at(exp - 10))).ok).toBe(true);
  });
});
