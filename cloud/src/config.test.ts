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
