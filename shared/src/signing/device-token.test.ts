import { createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  devicePrivateKey,
  devicePublicKey,
  devicePublicKeyOfSeed,
  generateDeviceKeyPair,
  signDeviceToken,
  verifyDeviceToken,
} from './device-token.js';

const pair = generateDeviceKeyPair();
const privateKey = devicePrivateKey(pair.privateKey);
const publicKey = devicePublicKey(pair.publicKey);
const NOW = new Date('2026-11-22T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const b64url = (value: object | Buffer) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
const claims = { sub: 'acct_x', jti: '6f9619ff-8b86-4011-b42d-00cf4fc964ff', iat: nowSeconds, exp: nowSeconds + 3600 };

const mint = (overrides: Partial<{ expiresAt: number }> = {}) =>
  signDeviceToken(privateKey, { sub: claims.sub, jti: claims.jti, issuedAt: claims.iat, expiresAt: overrides.expiresAt ?? claims.exp });

describe('device token (spec 5.1)', () => {
  it('derives the raw public key from the raw seed', () => {
    expect(devicePublicKeyOfSeed(pair.privateKey)).toBe(pair.publicKey);
    expect(Buffer.from(pair.publicKey, 'base64')).toHaveLength(32);
  });

  it('verifies a token it minted and returns sub and jti', async () => {
    expect(await verifyDeviceToken(publicKey, await mint(), NOW)).toEqual({ ok: true, sub: claims.sub, jti: claims.jti, exp: claims.exp });
  });

  it('refuses a token signed by another Ed25519 key', async () => {
    const other = devicePrivateKey(generateDeviceKeyPair().privateKey);
    const forged = await signDeviceToken(other, { sub: claims.sub, jti: claims.jti, expiresAt: claims.exp });
    expect(await verifyDeviceToken(publicKey, forged, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('refuses alg none', async () => {
    const forged = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    expect(await verifyDeviceToken(publicKey, forged, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('refuses HS256 keyed with the public key bytes (algorithm confusion)', async () => {
    const header = b64url({ alg: 'HS256', typ: 'JWT' });
    const payload = b64url(claims);
    for (const key of [Buffer.from(pair.publicKey, 'base64'), Buffer.from(pair.publicKey)]) {
      const signature = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
      expect(await verifyDeviceToken(publicKey, `${header}.${payload}.${signature}`, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
    }
  });

  it('refuses an ES256 token even with a valid signature of its own', async () => {
    const { privateKey: ecKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setSubject('acct_x').setJti('j').setExpirationTime(claims.exp).sign(ecKey);
    expect(await verifyDeviceToken(publicKey, token, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('refuses a token expired beyond the 60 s leeway and accepts one within it', async () => {
    const token = await mint({ expiresAt: nowSeconds - 30 });
    expect((await verifyDeviceToken(publicKey, token, NOW)).ok).toBe(true);
    expect(await verifyDeviceToken(publicKey, token, new Date(NOW.getTime() + 31_000))).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('refuses a token without exp', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject('acct_x').setJti('j').sign(privateKey);
    expect(await verifyDeviceToken(publicKey, token, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('calls a verified token without jti invalid_token', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject('acct_x').setExpirationTime(claims.exp).sign(privateKey);
    expect(await verifyDeviceToken(publicKey, token, NOW)).toEqual({ ok: false, reason: 'invalid_token' });
  });

  it('refuses everything when no key is configured (fail closed)', async () => {
    expect(await verifyDeviceToken(undefined, await mint(), NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it.each(['', 'abc', 'a.b.c', 'x'.repeat(10_000)])('refuses malformed input %#', async (token) => {
    expect(await verifyDeviceToken(publicKey, token, NOW)).toEqual({ ok: false, reason: 'unauthorized' });
  });

  it('refuses a key that is not 32 raw bytes', () => {
    expect(() => devicePublicKey(Buffer.alloc(31).toString('base64'))).toThrow(/32 raw bytes/);
  });
});
