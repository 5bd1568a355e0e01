import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import si from 'systeminformation';
import { signDeviceToken } from '@erasure/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner } from '../../src/adapters/runner.js';
import { stationPorts } from '../../src/adapters/station-ports.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { serveMode, startingPolicy } from '../../src/api/serve.js';
import { loadConfig } from '../../src/config.js';
import { prepareImageEnv } from '../../src/image/image-env.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'station-policy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The agent as the image starts it: the variables image-env wrote for this kernel command line, DATA_DIR in `dir`. */
function bootedWith(cmdline: string): AgentEnv {
  const paths = { mediumDir: join(dir, 'medium'), bakedDir: join(dir, 'baked'), runDir: join(dir, 'run') };
  mkdirSync(paths.mediumDir, { recursive: true });
  prepareImageEnv(cmdline, paths);
  const vars = Object.fromEntries(readFileSync(join(paths.runDir, 'agent.env'), 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return {
    config: loadConfig({ ...vars, DATA_DIR: join(dir, 'data'), ERASURE_DEVICE_TOKEN_FILE: join(dir, 'no-token') }),
    run: createRunner(),
    sys: nodeSystemView(),
    si,
    now: () => new Date(),
    sleep: async () => undefined,
    version: '0.1.0-test',
  };
}

/** The kiosk's settings screen saving a policy, through the station's real ports. */
const saveFromSettings = (env: AgentEnv, policy: 'auto' | 'confirm') => stationPorts(env, { account: 'Acme', recordId: 'CW-20250101-000000', fingerprint: async () => ({}) as never }, { follow: () => undefined, numberOf: () => undefined }).savePolicy?.(policy);

describe('a station started on the wrong device token', () => {
  const withToken = async (product: 'engine' | 'hotswap') => {
    const env = bootedWith('boot=live');
    const key = generateKeyPairSync('ed25519').privateKey;
    writeFileSync(env.config.ERASURE_DEVICE_TOKEN_FILE, `${await signDeviceToken(key, { sub: 'acct_1', jti: 'j-1', expiresAt: Math.floor(Date.now() / 1000) + 3600, product })}\n`);
    return env;
  };

  it('refuses `serve --station` on an engine token, saying so; a hotswap token starts it', async () => {
    expect(await serveMode(await withToken('engine'), { station: true })).toMatchObject({ station: true, refused: expect.stringMatching(/^this device token was minted for the engine product/) });
    const hotswap = await serveMode(await withToken('hotswap'), { station: true });
    expect(hotswap.station).toBe(true);
    expect(hotswap.refused).toBeUndefined();
  });

  it('runs an engine token without --station as the single-machine kiosk, refusing nothing', async () => {
    expect(await serveMode(await withToken('engine'), {})).toMatchObject({ station: false });
    expect((await serveMode(await withToken('engine'), {})).refused).toBeUndefined();
  });
});

describe('the station erase policy across reboots', () => {
  it('ranks a saved setting over the start-up choice (--policy, else the boot option) over auto', () => {
    expect(startingPolicy({})).toEqual({ policy: 'auto', source: 'default' });
    expect(startingPolicy({ bootOption: 'confirm' })).toEqual({ policy: 'confirm', source: 'boot option' });
    expect(startingPolicy({ flag: 'auto', bootOption: 'confirm' })).toEqual({ policy: 'auto', source: '--policy' });
    expect(startingPolicy({ saved: 'auto', flag: 'confirm', bootOption: 'confirm' })).toEqual({ policy: 'auto', source: 'saved in settings' });
  });

  it('starts with the boot option, unknown values as confirm, and auto without one', async () => {
    expect(await serveMode(bootedWith('boot=live'), { station: true })).toMatchObject({ policy: 'auto', policySource: 'default' });
    expect(await serveMode(bootedWith('boot=live erasure.station_policy=confirm'), { station: true })).toMatchObject({ policy: 'confirm', policySource: 'boot option' });
    expect(await serveMode(bootedWith('boot=live erasure.station_policy=whenever'), { station: true })).toMatchObject({ policy: 'confirm', policySource: 'boot option' });
  });

  it('keeps the policy saved from the kiosk settings in DATA_DIR, and it wins over the boot option at the next boot', async () => {
    await saveFromSettings(bootedWith('boot=live erasure.station_policy=confirm'), 'auto');
    expect(JSON.parse(readFileSync(join(dir, 'data', 'station-settings.json'), 'utf8'))).toEqual({ policy: 'auto' });
    // The reboot: a new agent over the same DATA_DIR (the ERASURE-DATA volume), the same boot option.
    expect(await serveMode(bootedWith('boot=live erasure.station_policy=confirm'), { station: true })).toMatchObject({ policy: 'auto', policySource: 'saved in settings' });
    await saveFromSettings(bootedWith('boot=live'), 'confirm');
    expect(await serveMode(bootedWith('boot=live'), { station: true })).toMatchObject({ policy: 'confirm', policySource: 'saved in settings' });
  });

  it('treats an unreadable settings file as confirm (fail closed), whatever the boot option says', async () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'station-settings.json'), '{"policy":"yolo"');
    expect(await serveMode(bootedWith('boot=live erasure.station_policy=auto'), { station: true })).toMatchObject({ policy: 'confirm', policySource: 'unreadable settings file', settingsUnreadable: 'station-settings.json is not valid JSON' });
    writeFileSync(join(dir, 'data', 'station-settings.json'), '{"policy":"yolo"}');
    expect(await serveMode(bootedWith('boot=live'), { station: true })).toMatchObject({ policy: 'confirm', policySource: 'unreadable settings file' });
    expect(await serveMode(bootedWith('boot=live'), { station: true, policy: 'auto' })).toMatchObject({ policy: 'confirm', policySource: 'unreadable settings file' });
  });
});
