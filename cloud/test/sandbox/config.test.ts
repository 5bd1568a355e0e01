import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { loadSandboxConfig } from '../../src/sandbox/config.js';

describe('erasure-cloud sandbox configuration (CONTRACT.md)', () => {
  it('defaults to port 8788, ./data/sandbox, the local webapp and no secret', () => {
    const sut = loadSandboxConfig({});
    expect(sut).toMatchObject({ HOST: '127.0.0.1', PORT: 8788, DATA_DIR: join('data', 'sandbox'), WEBAPP_BASE_URL: 'http://127.0.0.1:3000' });
    expect(sut.INTERNAL_API_SECRET).toBeUndefined();
    expect(sut.databasePath).toBe(join('data', 'sandbox', 'sandbox.sqlite'));
    expect(Object.isFrozen(sut)).toBe(true);
  });

  it('reads the environment and treats empty strings as unset', () => {
    const sut = loadSandboxConfig({ PORT: '0', DATA_DIR: '/tmp/x', INTERNAL_API_SECRET: '', WEBAPP_BASE_URL: 'https://app.example.com' });
    expect(sut).toMatchObject({ PORT: 0, DATA_DIR: '/tmp/x', WEBAPP_BASE_URL: 'https://app.example.com', databasePath: '/tmp/x/sandbox.sqlite' });
    expect(sut.INTERNAL_API_SECRET).toBeUndefined();
  });

  it('refuses a WEBAPP_BASE_URL that is not http(s) and a bad port', () => {
    expect(() => loadSandboxConfig({ WEBAPP_BASE_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadSandboxConfig({ PORT: 'eighty' })).toThrow(ConfigError);
  });
});
