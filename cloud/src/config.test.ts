import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('cloud configuration: downloads', () => {
  it('defaults minted tokens to 100 check-ins for 90 days and downloads to 2 per account, 6 in all', () => {
    const sut = loadConfig({});
    expect(sut.tokenDefaults).toEqual({ quotaLimit: 100, lifetimeDays: 90 });
    expect(sut.downloadLimits).toEqual({ perAccount: 2, total: 6 });
    expect(sut.IMAGE_DOWNLOAD_STALL_SECONDS).toBeUndefined();
  });

  it('reads DEVICE_TOKEN_DEFAULT_* and IMAGE_DOWNLOAD* from the environment', () => {
    const sut = loadConfig({
      DEVICE_TOKEN_DEFAULT_QUOTA: '10',
      DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS: '30',
      IMAGE_DOWNLOADS_PER_ACCOUNT: '1',
      IMAGE_DOWNLOADS_TOTAL: '3',
      IMAGE_DOWNLOAD_STALL_SECONDS: '20',
    });
    expect(sut.tokenDefaults).toEqual({ quotaLimit: 10, lifetimeDays: 30 });
    expect(sut.downloadLimits).toEqual({ perAccount: 1, total: 3 });
    expect(sut.IMAGE_DOWNLOAD_STALL_SECONDS).toBe(20);
  });

  it.each([
    ['DEVICE_TOKEN_DEFAULT_QUOTA', '0'],
    ['DEVICE_TOKEN_DEFAULT_QUOTA', 'unlimited'],
    ['DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS', '366'],
    ['IMAGE_DOWNLOADS_TOTAL', '0'],
    ['IMAGE_DOWNLOAD_STALL_SECONDS', '-1'],
  ])('refuses %s=%s: a default is never unlimited and no cap is zero', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });
});

describe('MAX_DRIVES_PER_MACHINE', () => {
  it('is unset by default (the device domain then caps at 256) and read as an integer when set', () => {
    expect(loadConfig({}).MAX_DRIVES_PER_MACHINE).toBeUndefined();
    expect(loadConfig({ MAX_DRIVES_PER_MACHINE: '64' }).MAX_DRIVES_PER_MACHINE).toBe(64);
  });

  it.each(['0', '-1', '2.5', '10001', 'many'])('refuses %s', (value) => {
    expect(() => loadConfig({ MAX_DRIVES_PER_MACHINE: value })).toThrow(ConfigError);
  });
});

describe('SHUTDOWN_TIMEOUT_SECONDS', () => {
  it('defaults to 30 s and is read in seconds', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(30_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '12' }).shutdownTimeoutMs).toBe(12_000);
  });

  it.each(['0', '1.5', '3601', 'soon'])('refuses %s', (value) => {
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: value })).toThrow(ConfigError);
  });
});

describe('TRUSTED_PROXIES', () => {
  it('trusts no proxy by default, and the listed addresses and ranges when set', () => {
    expect(loadConfig({}).trustedProxy).toBeUndefined();
    const trusted = loadConfig({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8, fd00::/8' }).trustedProxy!;
    expect(['127.0.0.1', '10.9.8.7', 'fd00::1', '192.0.2.1'].map(trusted)).toEqual([true, true, true, false]);
  });

  it('refuses an entry that is not an address or range, naming it', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.1, proxy.internal' })).toThrow(/TRUSTED_PROXIES: "proxy.internal"/);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.1, proxy.internal' })).toThrow(ConfigError);
  });
});

describe('WIPES_CSV_MAX_ROWS', () => {
  it('is unset by default (the export then caps at 1,000,000 rows) and read as a positive integer when set', () => {
    expect(loadConfig({}).WIPES_CSV_MAX_ROWS).toBeUndefined();
    expect(loadConfig({ WIPES_CSV_MAX_ROWS: '250000' }).WIPES_CSV_MAX_ROWS).toBe(250_000);
    expect(() => loadConfig({ WIPES_CSV_MAX_ROWS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ WIPES_CSV_MAX_ROWS: 'lots' })).toThrow(ConfigError);
  });
});
