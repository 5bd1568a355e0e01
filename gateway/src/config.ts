import type { KeyObject } from 'node:crypto';
import { Type } from '@fastify/type-provider-typebox';
import { DeviceKeyError, devicePublicKey, parseUnknown } from '@erasure/shared';

// TypeBox comes through the Fastify type provider, which re-exports it whole: the
// gateway then needs no second direct dependency on the same package.
const GatewayEnv = Type.Object({
  HOST: Type.String({ minLength: 1, maxLength: 255 }),
  PORT: Type.String({ pattern: '^[0-9]{1,5}$' }),
  DEVICE_TOKEN_PUBKEY: Type.Optional(Type.String({ minLength: 1 })),
  INTERNAL_API_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  CLOUD_INTERNAL_URL: Type.String({ pattern: '^https?://' }),
});

/** Defaults from CONTRACT.md "Configuration". */
export const CONFIG_DEFAULTS = {
  HOST: '127.0.0.1',
  PORT: '8787',
  CLOUD_INTERNAL_URL: 'http://127.0.0.1:3000',
} as const;

/** Everything the gateway process is configured with; parsed once, frozen, then injected. */
export interface GatewayConfig {
  readonly host: string;
  /** 0 asks the OS for any free port; main prints the one it got. */
  readonly port: number;
  /** Fleet public key; `undefined` makes every token check fail (401), never pass. */
  readonly devicePublicKey: KeyObject | undefined;
  /** HMAC key of the internal channel; `undefined` means nothing can be forwarded (503). */
  readonly internalApiSecret: string | undefined;
  /** One base URL, or several cloud instances on one database (CLOUD_INTERNAL_URL comma-separated). */
  readonly cloudInternalUrls: readonly string[];
}

/** A setting that is present but unusable: the process refuses to start rather than guess. */
export class ConfigError extends Error {
  readonly code = 'GATEWAY_CONFIG_INVALID';
}

/**
 * Reads the environment names of CONTRACT.md. Unset secrets are not errors: they make
 * the gateway fail closed at request time. A malformed value is an error, because a
 * typo in a key must not look like "no key configured" to the operator.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): GatewayConfig {
  // Empty strings count as unset: `FOO= erasure-gateway serve` is how shells unset things.
  const pick = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const raw = {
    HOST: pick('HOST') ?? CONFIG_DEFAULTS.HOST,
    PORT: pick('PORT') ?? CONFIG_DEFAULTS.PORT,
    CLOUD_INTERNAL_URL: pick('CLOUD_INTERNAL_URL') ?? CONFIG_DEFAULTS.CLOUD_INTERNAL_URL,
    ...optional('DEVICE_TOKEN_PUBKEY', pick('DEVICE_TOKEN_PUBKEY')),
    ...optional('INTERNAL_API_SECRET', pick('INTERNAL_API_SECRET')),
  };
  const parsed = parseUnknown(GatewayEnv, raw);
  if (!parsed.ok) throw new ConfigError(`invalid configuration at ${parsed.path}: ${parsed.message}`);
  const { HOST, PORT, DEVICE_TOKEN_PUBKEY, INTERNAL_API_SECRET, CLOUD_INTERNAL_URL } = parsed.value;

  const port = Number(PORT);
  if (port > 65_535) throw new ConfigError(`PORT must be 0..65535, got ${PORT}`);
  const cloudInternalUrls = CLOUD_INTERNAL_URL.split(',').map((url) => url.trim());
  for (const url of cloudInternalUrls) {
    if (!/^https?:\/\//.test(url) || !URL.canParse(url)) throw new ConfigError(`CLOUD_INTERNAL_URL ${JSON.stringify(url)} is not an http(s) URL`);
  }

  return Object.freeze({
    host: HOST,
    port,
    devicePublicKey: DEVICE_TOKEN_PUBKEY === undefined ? undefined : publicKeyOf(DEVICE_TOKEN_PUBKEY),
    internalApiSecret: INTERNAL_API_SECRET,
    cloudInternalUrls: Object.freeze(cloudInternalUrls),
  });
}

function optional(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value };
}

function publicKeyOf(base64: string): KeyObject {
  try {
    return devicePublicKey(base64);
  } catch (error) {
    if (error instanceof DeviceKeyError) throw new ConfigError(`DEVICE_TOKEN_PUBKEY: ${error.message}`);
    throw error;
  }
}
