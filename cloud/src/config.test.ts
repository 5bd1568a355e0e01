import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
