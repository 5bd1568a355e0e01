import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from '@sinclair/typebox';
import { parseUnknown } from '@erasure/shared';

const Env = Type.Object({
  HOST: Type.String({ minLength: 1 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  DATA_DIR: Type.String({ minLength: 1 }),
  ERASURE_GATEWAY_URL: Type.String({ pattern: '^https?://' }),
  ERASURE_DEVICE_TOKEN_FILE: Type.String({ minLength: 1 }),
  ERASURE_SIMULATE: Type.Boolean(),
  /** A simulated machine's drive speed in MB/s (writes and read-back), so an erase takes as long as on a real disk. */
  ERASURE_SIMULATE_MBPS: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100_000 })),
  KIOSK_RENDERER_DIR: Type.String({ minLength: 1 }),
  /** A station's erase policy until one is saved in the kiosk's settings (the image sets it from `erasure.station_policy`). */
  ERASURE_STATION_POLICY: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('confirm')])),
  /** Freeze lock removal at boot until the kiosk's settings save a choice (the image sets it from `erasure.unfreeze`). */
  ERASURE_UNFREEZE: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('off'), Type.Literal('always')])),
  /** Drives erased at once (the image sets it from `erasure.parallel`); absent: every selected drive. */
  ERASURE_PARALLEL: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** The agent's configuration (CONTRACT.md "Configuration"), frozen. */
export type AgentConfig = Readonly<Static<typeof Env>>;

/** The environment does not describe a usable configuration. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;
}

/**
 * Reads the agent's variables once (the only reader of the environment, STYLE F). Empty strings
 * count as unset. The token file is only named here; reading it happens where it is used, so a
 * missing token fails closed at the gateway (401) instead of crashing the agent.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, flags: { simulate?: boolean } = {}): AgentConfig {
  const present = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const raw = {
    HOST: present('HOST') ?? '127.0.0.1',
    PORT: Number(present('PORT') ?? 7070),
    DATA_DIR: present('DATA_DIR') ?? join('data', 'agent'),
    ERASURE_GATEWAY_URL: present('ERASURE_GATEWAY_URL') ?? 'http://127.0.0.1:8787',
    ERASURE_DEVICE_TOKEN_FILE: present('ERASURE_DEVICE_TOKEN_FILE') ?? '/etc/erasure/device-token',
    ERASURE_SIMULATE: flags.simulate === true || present('ERASURE_SIMULATE') === '1',
    // The kiosk package's built renderer beside this workspace (src/ and dist/ are both one level
    // down); serve skips static files when the folder does not exist.
    // Only a simulated machine is slowed down: a real drive is never held back.
    ...(present('ERASURE_SIMULATE_MBPS') !== undefined && (flags.simulate === true || present('ERASURE_SIMULATE') === '1') ? { ERASURE_SIMULATE_MBPS: Number(present('ERASURE_SIMULATE_MBPS')) } : {}),
    KIOSK_RENDERER_DIR: present('KIOSK_RENDERER_DIR') ?? fileURLToPath(new URL('../../kiosk/dist/renderer', import.meta.url)),
    // Like the boot option it comes from: anything but `auto` is the safe side, confirm per drive.
    ...(present('ERASURE_STATION_POLICY') !== undefined ? { ERASURE_STATION_POLICY: present('ERASURE_STATION_POLICY') === 'auto' ? 'auto' : 'confirm' } : {}),
    // Anything but `auto` is off: a machine that does not wake from a suspend is the worse failure.
    ...(present('ERASURE_UNFREEZE') !== undefined ? { ERASURE_UNFREEZE: present('ERASURE_UNFREEZE') === 'auto' || present('ERASURE_UNFREEZE') === 'always' ? present('ERASURE_UNFREEZE') : 'off' } : {}),
    ...(present('ERASURE_PARALLEL') !== undefined ? { ERASURE_PARALLEL: Number(present('ERASURE_PARALLEL')) } : {}),
  };
  const parsed = parseUnknown(Env, raw);
  if (!parsed.ok) throw new ConfigError(`invalid configuration ${parsed.path}: ${parsed.message}`);
  return Object.freeze(parsed.value);
}
