import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRemoteKiosk, readRemoteKioskFile } from '../remote-kiosk/boot-file.js';
import { prepareImageEnv, type ImagePaths } from './image-env.js';

let root: string;
let paths: ImagePaths;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'image-env-'));
  paths = { mediumDir: join(root, 'medium'), bakedDir: join(root, 'etc-erasure'), runDir: join(root, 'run') };
  mkdirSync(join(paths.mediumDir, 'erasure'), { recursive: true });
  mkdirSync(paths.bakedDir, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = () => readFileSync(join(paths.runDir, 'agent.env'), 'utf8');

describe('the image boot step', () => {
  it('hands the agent the token and gateway URL from the personalized medium, on loopback', () => {
    writeFileSync(join(paths.mediumDir, 'erasure/device-token'), 'eyJ.tok.sig\n');
    writeFileSync(join(paths.mediumDir, 'erasure/gateway-url'), 'https://gw.example.net\n');
    const r = prepareImageEnv('boot=live', paths);
    expect(r).toMatchObject({ gatewayUrl: 'https://gw.example.net', gatewaySource: 'medium', tokenSource: 'medium' });
    expect(env()).toContain('ERASURE_GATEWAY_URL=https://gw.example.net\n');
    expect(env()).toContain('HOST=127.0.0.1\n');
    expect(readFileSync(join(paths.runDir, 'device-token'), 'utf8')).toBe('eyJ.tok.sig\n');
    expect(statSync(join(paths.runDir, 'device-token')).mode & 0o777).toBe(0o600);
  });

  it('lets the kernel command line override the gateway URL', () => {
    writeFileSync(join(paths.mediumDir, 'erasure/gateway-url'), 'https://gw.example.net\n');
    const r = prepareImageEnv('boot=live erasure.gateway=http://10.0.2.100:8787', paths);
    expect(r.gatewaySource).toBe('kernel command line');
    expect(env()).toContain('ERASURE_GATEWAY_URL=http://10.0.2.100:8787\n');
  });

  it('falls back to what is baked into the image (PXE has no medium)', () => {
    writeFileSync(join(paths.bakedDir, 'device-token'), 'baked.tok.sig\n');
    writeFileSync(join(paths.bakedDir, 'gateway-url'), 'https://pxe-gw.example.net\n');
    expect(prepareImageEnv('', paths)).toMatchObject({ tokenSource: 'image', gatewaySource: 'image' });
  });

  it('writes no token file when the image carries none, so the gateway refuses the device', () => {
    const r = prepareImageEnv('', paths);
    expect(r.tokenSource).toBe('none');
    expect(existsSync(join(paths.runDir, 'device-token'))).toBe(false);
    expect(env()).not.toContain('ERASURE_GATEWAY_URL');
  });

  it('marks the mode the units start on: the kiosk by default, headless when asked', () => {
    prepareImageEnv('', paths);
    expect([existsSync(join(paths.runDir, 'mode-kiosk')), existsSync(join(paths.runDir, 'mode-headless'))]).toEqual([true, false]);
    prepareImageEnv('erasure.mode=headless', paths);
    expect([existsSync(join(paths.runDir, 'mode-kiosk')), existsSync(join(paths.runDir, 'mode-headless'))]).toEqual([false, true]);
  });

  it('offers the kiosk beyond loopback (the 7071 proxy) only when asked on the command line, with a pairing code made at boot', () => {
    expect(prepareImageEnv('', paths).remoteKiosk).toEqual({ kind: 'off' });
    expect(readRemoteKioskFile(paths.runDir)).toBeUndefined();
    const r = prepareImageEnv('erasure.agent_listen=any', paths);
    expect(r.remoteKiosk).toMatchObject({ kind: 'on', listen: 'any', codeSource: 'made at boot', code: expect.stringMatching(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/) });
    expect(readRemoteKioskFile(paths.runDir)).toEqual({ listen: 'any', code: r.remoteKiosk.kind === 'on' ? r.remoteKiosk.code : '' });
    expect(statSync(join(paths.runDir, 'remote-kiosk')).mode & 0o777).toBe(0o600);
    expect(describeRemoteKiosk(r.remoteKiosk)).toContain(`remote kiosk pairing code: ${r.remoteKiosk.kind === 'on' ? r.remoteKiosk.code : ''}`);
    expect(env()).toContain('HOST=127.0.0.1\n');
    // The next boot without the option starts no proxy.
    prepareImageEnv('', paths);
    expect(existsSync(join(paths.runDir, 'remote-kiosk'))).toBe(false);
  });

  it('makes a new pairing code each boot', () => {
    const codes = [1, 2].map(() => prepareImageEnv('erasure.agent_listen=any', paths).remoteKiosk).map((d) => (d.kind === 'on' ? d.code : ''));
    expect(codes[0]).not.toBe(codes[1]);
  });

  it('takes the pairing code from erasure.agent_secret, and starts no proxy when that code is too short to resist guessing', () => {
    const r = prepareImageEnv('erasure.agent_listen=10.0.2.15 erasure.agent_secret=rig-secret-0123456789', paths);
    expect(readRemoteKioskFile(paths.runDir)).toEqual({ listen: '10.0.2.15', code: 'rig-secret-0123456789' });
    expect(describeRemoteKiosk(r.remoteKiosk)).not.toContain('rig-secret');
    const short = prepareImageEnv('erasure.agent_listen=any erasure.agent_secret=1234', paths);
    expect(short.remoteKiosk).toEqual({ kind: 'refused', reason: 'erasure.agent_secret is shorter than 16 characters' });
    expect(existsSync(join(paths.runDir, 'remote-kiosk'))).toBe(false);
  });

  it('hands erasure.station_policy to the agent, an unknown value as confirm, and nothing when not given', () => {
    prepareImageEnv('boot=live', paths);
    expect(env()).not.toContain('ERASURE_STATION_POLICY');
    prepareImageEnv('erasure.station_policy=auto', paths);
    expect(env()).toContain('ERASURE_STATION_POLICY=auto\n');
    prepareImageEnv('erasure.station_policy=sometimes', paths);
    expect(env()).toContain('ERASURE_STATION_POLICY=confirm\n');
  });

  it('hands erasure.unfreeze to the agent, an unknown value as off, and nothing when not given', () => {
    prepareImageEnv('boot=live', paths);
    expect(env()).not.toContain('ERASURE_UNFREEZE');
    prepareImageEnv('erasure.unfreeze=off', paths);
    expect(env()).toContain('ERASURE_UNFREEZE=off\n');
    prepareImageEnv('erasure.unfreeze=maybe', paths);
    expect(env()).toContain('ERASURE_UNFREEZE=off\n');
  });
});
