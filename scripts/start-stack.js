#!/usr/bin/env node
// `npm start`: the whole local stack on one machine — cloud and gateway with generated keys,
// a demo account, a demo admin user and a ready device token. Keys and the demo data persist
// under ./data so a restart keeps the same token working.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(process.env.DATA_DIR ?? join(root, 'data'));
const host = process.env.HOST ?? '127.0.0.1';
const cloudPort = process.env.CLOUD_PORT ?? '3000';
const gatewayPort = process.env.GATEWAY_PORT ?? '8787';
const sandboxPort = process.env.SANDBOX_PORT ?? '8788';
const cloudBin = join(root, 'cloud/bin/erasure-cloud.js');
const gatewayBin = join(root, 'gateway/bin/erasure-gateway.js');
const agentPort = process.env.AGENT_PORT ?? '7070';
const agentBin = join(root, 'engine-agent/bin/erasure-agent.js');
const kioskBin = join(root, 'kiosk/bin/erasure-kiosk.js');
// `npm start -- --station`: the simulated machine as a hotswap station with a simulated backplane.
const args = process.argv.slice(2);
const station = args.includes('--station');
const unknown = args.filter((a) => a !== '--station');
if (unknown.length > 0) {
  console.error(`npm start: unknown option ${unknown.join(' ')} (the one option is --station)`);
  process.exit(2);
}

if (!existsSync(join(root, 'cloud/dist/main.js')) || !existsSync(join(root, 'gateway/dist/main.js'))) {
  console.error('The build is missing: run `npm ci` (it builds every workspace) first.');
  process.exit(1);
}

mkdirSync(dataDir, { recursive: true });
const stateFile = join(dataDir, 'stack.json');
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {};

// A local stack for QA: webhooks and Push may target local receivers (http, loopback) unless the
// caller says otherwise; every other internal address stays refused.
const localTargets = {
  WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? '1',
  WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? '1',
};

const cloudEnv = () => ({
  ...process.env,
  ...localTargets,
  HOST: host,
  PORT: cloudPort,
  DATA_DIR: join(dataDir, 'cloud'),
  INTERNAL_API_SECRET: state.keys.internal_api_secret,
  DEVICE_TOKEN_PRIVATE_KEY: state.keys.device_token_private_key,
  // The local stack is reached where it listens: certificates' verify links and QR codes, and the
  // gateway that downloaded images are personalized with, point there (a deployment sets its own).
  // With port 0 the address is not known yet: the cloud then links to the port it bound.
  ...publicUrl('PUBLIC_BASE_URL', cloudPort),
  ...publicUrl('PUBLIC_GATEWAY_URL', gatewayPort),
});

function publicUrl(name, port) {
  if (process.env[name]) return { [name]: process.env[name] };
  return port === '0' ? {} : { [name]: `http://${host}:${port}` };
}

function cloudCli(args) {
  return JSON.parse(execFileSync(process.execPath, [cloudBin, ...args, '--json'], { env: cloudEnv(), encoding: 'utf8' }));
}

if (!state.keys) {
  state.keys = JSON.parse(execFileSync(process.execPath, [cloudBin, 'keygen', '--json'], { encoding: 'utf8' }));
}
if (!state.account) {
  state.account = cloudCli(['admin', 'create-account', '--name', 'Demo Refurbishing']);
  state.user = { email: 'admin@demo.local', password: 'demo-password' };
  cloudCli(['admin', 'create-user', '--account', state.account.id, '--email', state.user.email, '--password', state.user.password, '--role', 'admin']);
  state.device = cloudCli(['admin', 'mint-device-token', '--account', state.account.id, '--quota', '1000', '--user-email', state.user.email]);
  writeFileSync(join(dataDir, 'device-token'), `${state.device.token}\n`, { mode: 0o600 });
}
// The station checks in once per drive, which only a hotswap token's job ids certify: an engine
// token there spends quota on results that are never certified (and the agent refuses it).
if (station && !state.stationDevice) {
  state.stationDevice = cloudCli(['admin', 'mint-device-token', '--account', state.account.id, '--product', 'hotswap', '--quota', '1000', '--user-email', state.user.email]);
  writeFileSync(join(dataDir, 'station-device-token'), `${state.stationDevice.token}\n`, { mode: 0o600 });
}
const device = station ? state.stationDevice : state.device;
const deviceTokenFile = join(dataDir, station ? 'station-device-token' : 'device-token');
writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });

const children = [];

/** Starts a service, prefixes its output, and resolves with the URL it prints when listening. */
function start(name, bin, env, command = ['serve']) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let announced = false;
    const relay = (stream, out) => {
      let buffered = '';
      stream.on('data', (chunk) => {
        buffered += chunk;
        let newline;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          out.write(`[${name}] ${line}\n`);
          const match = /listening on (http:\/\/[^\s"]+)/.exec(line);
          if (match && !announced) {
            announced = true;
            resolvePromise(match[1]);
          }
        }
      });
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('exit', (code) => {
      if (!announced) reject(new Error(`${name} exited with code ${code} before listening`));
      else if (!stopping) {
        console.error(`[${name}] exited with code ${code}; stopping the stack`);
        stop(1);
      }
    });
  });
}

/**
 * Opens the kiosk (Electron, else a Chromium window) on the agent, unless there is no display to
 * open it on or KIOSK_OPEN=0; its URL is printed either way. Closing the window leaves the stack up.
 */
function openKiosk(url) {
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (process.env.KIOSK_OPEN === '0' || !hasDisplay) {
    console.log(`[kiosk] not opening a window (${hasDisplay ? 'KIOSK_OPEN=0' : 'no display'}): open ${url} in a browser`);
    return;
  }
  const child = spawn(process.execPath, [kioskBin, '--url', url, '--windowed'], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  child.on('exit', (code) => !stopping && console.log(`[kiosk] window closed (${code}); the stack keeps running`));
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  const cloudUrl = await start('cloud', cloudBin, cloudEnv());
  const gatewayUrl = await start('gateway', gatewayBin, {
    ...process.env,
    HOST: host,
    PORT: gatewayPort,
    DEVICE_TOKEN_PUBKEY: state.keys.device_token_pubkey,
    INTERNAL_API_SECRET: state.keys.internal_api_secret,
    CLOUD_INTERNAL_URL: cloudUrl,
  });
  // The integrators' sandbox: its own database, API keys checked against this cloud, no HMAC.
  const sandboxUrl = await start(
    'sandbox',
    cloudBin,
    { ...process.env, ...localTargets, HOST: host, PORT: sandboxPort, DATA_DIR: join(dataDir, 'sandbox'), WEBAPP_BASE_URL: cloudUrl, INTERNAL_API_SECRET: '' },
    ['sandbox'],
  );
  // A simulated machine (built-in fingerprint, file-backed drives) against this gateway, and its
  // kiosk; with --station a hotswap station whose backplane's bays are seated with `sim insert`.
  const agentData = join(dataDir, station ? 'station' : 'agent');
  const agentUrl = await start(
    'agent',
    agentBin,
    {
      ...process.env,
      HOST: host,
      PORT: agentPort,
      ERASURE_GATEWAY_URL: gatewayUrl,
      ERASURE_DEVICE_TOKEN_FILE: deviceTokenFile,
      DATA_DIR: agentData,
      ERASURE_SIMULATE: '1',
    },
    station ? ['serve', '--station'] : ['serve'],
  );
  openKiosk(agentUrl);
  const sim = `DATA_DIR=${agentData} node ${agentBin} sim`;
  console.log(`
Erasure stack is up.
  cloud    ${cloudUrl}
  gateway  ${gatewayUrl}
  sandbox  ${sandboxUrl}
  kiosk    ${agentUrl}  (${station ? "the simulated hotswap station's bay screen" : "the simulated machine's technician screen"})
  account  ${state.account.name} (${state.account.id})
  sign-in  ${state.user.email} / ${state.user.password}
  device token file  ${deviceTokenFile}${station ? ' (product hotswap)' : ''}
  device token       ${device.token}

Try:  curl -s -X POST -H "Authorization: Bearer $(cat ${deviceTokenFile})" ${gatewayUrl}/api/verify
${
  station
    ? `
The station's simulated backplane has bays 1 to 4. Seat and pull drives from another terminal:
  ${sim} insert 1 [--size 256M]
  ${sim} pull 1
  ${sim} list
`
    : ''
}Press Ctrl+C to stop.`);
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  stop(1);
}
