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
