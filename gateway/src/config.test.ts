import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair } from '@erasure/shared';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the CONTRACT.md defaults to an empty environment', () => {
    const sut = loadConfig({});
    expect(sut).toMatchObject({ host: '127.0.0.1', port: 8787, cloudInternalUrls: ['http://127.0.0.1:3000'] });
    expect(sut.devicePublicKey).toBeUndefined();
    expect(sut.internalApiSecret).toBeUndefined();
  });

  it('reads every variable it names', () => {
    const { publicKey } = generateDeviceKeyPair();
    const sut = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      DEVICE_TOKEN_PUBKEY: publicKey,
      INTERNAL_API_SECRET: 's3cret',
      CLOUD_INTERNAL_URL: 'https://cloud.internal:8443/base',
    });
    expect(sut).toMatchObject({ host: '0.0.0.0', port: 0, internalApiSecret: 's3cret', cloudInternalUrls: ['https://cloud.internal:8443/base'] });
    expect(sut.devicePublicKey?.asymmetricKeyType).toBe('ed25519');
  });

  it('treats empty values as unset, so secrets stay unset rather than empty', () => {
    const sut = loadConfig({ DEVICE_TOKEN_PUBKEY: '', INTERNAL_API_SECRET: '  ', PORT: '' });
    expect(sut.devicePublicKey).toBeUndefined();
    expect(sut.internalApiSecret).toBeUndefined();
    expect(sut.port).toBe(8787);
  });

  it('reads several cloud instances from a comma-separated CLOUD_INTERNAL_URL', () => {
    const sut = loadConfig({ CLOUD_INTERNAL_URL: 'http://10.0.0.1:3000, http://10.0.0.2:3000/base' });
    expect(sut.cloudInternalUrls).toEqual(['http://10.0.0.1:3000', 'http://10.0.0.2:3000/base']);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });

  it.each([
    ['a non-numeric port', { PORT: 'eighty' }],
    ['a port past 65535', { PORT: '70000' }],
    ['a non-http cloud URL', { CLOUD_INTERNAL_URL: 'ftp://cloud' }],
    ['a list with a non-http cloud URL', { CLOUD_INTERNAL_URL: 'http://cloud-a:3000,ftp://cloud-b' }],
    ['a list with an empty entry', { CLOUD_INTERNAL_URL: 'http://cloud-a:3000,' }],
    ['a public key that is not 32 bytes', { DEVICE_TOKEN_PUBKEY: 'c2hvcnQ=' }],
  ])('refuses %s with a ConfigError', (_what, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });
});
