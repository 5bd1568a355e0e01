import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMAGE_FILES } from '@erasure/shared';
import { decideRemoteKiosk, writeRemoteKioskFile, type RemoteKioskDecision } from '../remote-kiosk/boot-file.js';
import { parseBootOptions, type BootOptions } from './boot-options.js';

/** Where the image's boot step looks and writes. */
export interface ImagePaths {
  /** The live medium (ISO or USB stick), personalized by the build or `erasure-iso personalize`. */
  readonly mediumDir: string;
  /** Baked into the root filesystem instead (PXE images have no medium to carry them). */
  readonly bakedDir: string;
  /** Per-boot output: the agent's environment file and the token copy it reads. */
  readonly runDir: string;
}

export const IMAGE_PATHS: ImagePaths = { mediumDir: '/run/live/medium', bakedDir: '/opt/erasure/device', runDir: '/run/erasure' };

/** The agent's DATA_DIR on the image: RAM, unless the ERASURE-DATA volume is mounted there (data-volume.ts). */
export const IMAGE_DATA_DIR = '/var/lib/erasure';

/** What this boot will run with (the token itself is never printed). */
export interface ImageEnv {
  readonly options: BootOptions;
  readonly gatewayUrl: string | undefined;
  readonly gatewaySource: 'kernel command line' | 'medium' | 'image' | 'none';
  readonly tokenSource: 'medium' | 'image' | 'none';
  /** The remote kiosk of `erasure.agent_listen`, with its pairing code (printed on the console only). */
  readonly remoteKiosk: RemoteKioskDecision;
}

function firstLine(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const line = readFileSync(path, 'utf8').split('\n')[0]?.trim();
  return line ? line : undefined;
}

/**
 * Writes `runDir/agent.env` and `runDir/device-token` for the agent's units. No token writes no
 * token file: the agent then calls without one, the gateway answers 401, and the kiosk stays
 * locked saying so (fail closed). The gateway URL: the kernel command line wins over the medium,
 * the medium over the image.
 */
export function prepareImageEnv(cmdline: string, paths: ImagePaths = IMAGE_PATHS): ImageEnv {
  const options = parseBootOptions(cmdline);
  const fromMedium = (file: string) => firstLine(join(paths.mediumDir, file));
  const fromImage = (file: string) => firstLine(join(paths.bakedDir, file.replace(/^erasure\//, '')));

  const mediumUrl = fromMedium(IMAGE_FILES.gatewayUrl);
  const imageUrl = fromImage(IMAGE_FILES.gatewayUrl);
  const gatewayUrl = options.gatewayUrl ?? mediumUrl ?? imageUrl;
  const gatewaySource = options.gatewayUrl ? 'kernel command line' : mediumUrl ? 'medium' : imageUrl ? 'image' : 'none';

  const mediumToken = fromMedium(IMAGE_FILES.deviceToken);
  const token = mediumToken ?? fromImage(IMAGE_FILES.deviceToken);
  const tokenSource = mediumToken ? 'medium' : token ? 'image' : 'none';

  mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  const tokenFile = join(paths.runDir, 'device-token');
  if (token) {
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    chmodSync(tokenFile, 0o600);
  }
  const lines = [
    'HOST=127.0.0.1',
    'PORT=7070',
    `DATA_DIR=${IMAGE_DATA_DIR}`,
    `ERASURE_DEVICE_TOKEN_FILE=${tokenFile}`,
    // No URL anywhere: the agent's loopback default answers nothing, so the kiosk stays locked.
    ...(gatewayUrl ? [`ERASURE_GATEWAY_URL=${gatewayUrl}`] : []),
    // erasure.station_policy: serve's station policy until the kiosk's settings save one.
    ...(options.stationPolicy ? [`ERASURE_STATION_POLICY=${options.stationPolicy}`] : []),
    // erasure.unfreeze: whether serve suspends once at boot to unfreeze drives (the kiosk's setting wins).
    ...(options.unfreeze ? [`ERASURE_UNFREEZE=${options.unfreeze}`] : []),
    // erasure.parallel: the kiosk's erase runs at most this many drives at once.
    ...(options.parallel !== undefined ? [`ERASURE_PARALLEL=${options.parallel}`] : []),
  ];
  writeFileSync(join(paths.runDir, 'agent.env'), `${lines.join('\n')}\n`, { mode: 0o600 });
  // The units start on these markers (ConditionPathExists), so this parser alone decides the mode.
  rmSync(join(paths.runDir, 'mode-kiosk'), { force: true });
  rmSync(join(paths.runDir, 'mode-headless'), { force: true });
  rmSync(join(paths.runDir, 'mode-validate'), { force: true });
  writeFileSync(join(paths.runDir, `mode-${options.mode}`), '');
  // erasure.agent_listen starts the paired proxy to the loopback API on port 7071 (test rigs only).
  const remoteKiosk = decideRemoteKiosk(options);
  writeRemoteKioskFile(paths.runDir, remoteKiosk);
  return { options, gatewayUrl, gatewaySource, tokenSource, remoteKiosk };
}
