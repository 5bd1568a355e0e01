import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('ERASURE_SIMULATE_MBPS', () => {
  it('gives a simulated machine its drive speed', () => {
    expect(loadConfig({ ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: '150' }).ERASURE_SIMULATE_MBPS).toBe(150);
    expect(loadConfig({ ERASURE_SIMULATE_MBPS: '2.5' }, { simulate: true }).ERASURE_SIMULATE_MBPS).toBe(2.5);
  });

  it('never slows a real machine down', () => {
    expect(loadConfig({ ERASURE_SIMULATE_MBPS: '150' }).ERASURE_SIMULATE_MBPS).toBeUndefined();
  });

  it('refuses a speed that is not a positive number', () => {
    for (const bad of ['fast', '0', '-5']) expect(() => loadConfig({ ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: bad })).toThrow(ConfigError);
  });
});
