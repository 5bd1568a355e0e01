import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { parseUnknown } from '@erasure/shared';
import { ConfigError } from '../config.js';

const Env = Type.Object({
  HOST: Type.String({ minLength: 1 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  DATA_DIR: Type.String({ minLength: 1 }),
  INTERNAL_API_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  WEBAPP_BASE_URL: Type.String({ pattern: '^https?://' }),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  CERTIFICATE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** `1`: subscriptions may point at loopback receivers (tests, development), as in the cloud. */
  WEBHOOK_ALLOW_LOOPBACK: Type.Optional(Type.String()),
});

export type SandboxConfig = Readonly<Static<typeof Env> & { databasePath: string; publicBaseUrl: string }>;

/**
 * `erasure-cloud sandbox` configuration (CONTRACT.md): PORT 8788, DATA_DIR ./data/sandbox,
 * WEBAPP_BASE_URL http://127.0.0.1:3000, INTERNAL_API_SECRET optional (unset = no HMAC check).
 * Empty strings count as unset. Read once in main.ts and frozen.
 */
export function loadSandboxConfig(env: Readonly<Record<string, string | undefined>>): SandboxConfig {
  const present = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const raw: Record<string, unknown> = {
    HOST: present('HOST') ?? '127.0.0.1',
    PORT: Number(present('PORT') ?? 8788),
    DATA_DIR: present('DATA_DIR') ?? join('data', 'sandbox'),
    INTERNAL_API_SECRET: present('INTERNAL_API_SECRET'),
    WEBAPP_BASE_URL: present('WEBAPP_BASE_URL') ?? 'http://127.0.0.1:3000',
    PUBLIC_BASE_URL: present('PUBLIC_BASE_URL'),
    CERTIFICATE_SIGNING_KEY: present('CERTIFICATE_SIGNING_KEY'),
    WEBHOOK_ALLOW_LOOPBACK: present('WEBHOOK_ALLOW_LOOPBACK'),
  };
  for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];
  const parsed = parseUnknown(Env, raw);
  if (!parsed.ok) throw new ConfigError(`invalid configuration ${parsed.path}: ${parsed.message}`);
  const config = parsed.value;
  return Object.freeze({
    ...config,
    databasePath: join(config.DATA_DIR, 'sandbox.sqlite'),
    publicBaseUrl: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`,
  });
}
