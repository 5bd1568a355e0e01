import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { parseUnknown } from '@erasure/shared';
import type { OutboundPolicy } from './domain/webhooks/ssrf.js';
import { BUILT_IN_TOKEN_DEFAULTS, type TokenTermsDefaults } from './domain/devices/token-terms.js';
import { DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from './http/download-slots.js';
import { MAX_DRIVES_PER_MACHINE_LIMIT } from './domain/device/issued-job.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from './jobs/shutdown.js';
import { objectStoreSettings, ObjectStoreSettingsError, type ObjectStoreSettings } from './adapters/objects/store-settings.js';
import { parseTrustedProxies, TrustedProxiesError, type TrustedProxy } from './http/trusted-proxies.js';

const Env = Type.Object({
  HOST: Type.String({ minLength: 1 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  DATA_DIR: Type.String({ minLength: 1 }),
  INTERNAL_API_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  DEVICE_TOKEN_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The gateway devices call, baked into images downloaded from /downloads. */
  PUBLIC_GATEWAY_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Check-ins a device token minted on /downloads gets while its account chose no quota; default 100 (never unlimited). */
  DEVICE_TOKEN_DEFAULT_QUOTA: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  /** Days such a token lives while its account chose no lifetime; default 90. */
  DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  /** Image downloads (xorriso processes) one account may run at once; default 2. */
  IMAGE_DOWNLOADS_PER_ACCOUNT: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** Image downloads this process runs at once, all accounts together; default 6. */
  IMAGE_DOWNLOADS_TOTAL: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** Seconds an image download's reader may take no bytes before it is cut off; default 60. */
  IMAGE_DOWNLOAD_STALL_SECONDS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  /** base64 raw Ed25519 seed signing certificates; unset = a key generated once into the database. */
  CERTIFICATE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Path of a PEM X.509 certificate (chain after it) that signs the PDFs; unset = a self-signed one in the database. */
  CERTIFICATE_PDF_CERTIFICATE: Type.Optional(Type.String({ minLength: 1 })),
  /** Path of the PEM RSA private key of CERTIFICATE_PDF_CERTIFICATE; set both or neither. */
  CERTIFICATE_PDF_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** `1` allows http:// outbound targets (webhooks, the wipes grid's push); tests and development only. */
  WEBHOOK_ALLOW_HTTP: Type.Optional(Type.String()),
  /** `1` lets those targets be loopback addresses (127.0.0.0/8, ::1, localhost); tests and development only. */
  WEBHOOK_ALLOW_LOOPBACK: Type.Optional(Type.String()),
  /** Scales the whole webhook retry schedule; unset = 8 attempts over about 90 minutes. */
  WEBHOOK_RETRY_BASE_MS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
  /** How long a rotated-out webhook signing secret still signs, in hours; default 24. */
  WEBHOOK_SECRET_ROLLOVER_HOURS: Type.Optional(Type.Number({ minimum: 0, maximum: 24 * 90 })),
  /** Days finished webhook deliveries stay in the ledger before the worker prunes them; default 30. */
  WEBHOOK_LEDGER_RETENTION_DAYS: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3650 })),
  /** How long SIGTERM may take to stop `serve` or `worker` (in-flight work finished or handed back); default 30. */
  SHUTDOWN_TIMEOUT_SECONDS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  /** Drives one engine check-in can certify (`-0` … `-(N-1)`); default 256. */
  MAX_DRIVES_PER_MACHINE: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DRIVES_PER_MACHINE_LIMIT })),
  /** Reverse proxies (addresses or CIDRs) whose `X-Forwarded-For` names the client; unset = the peer is the client. */
  TRUSTED_PROXIES: Type.Optional(Type.String({ minLength: 1 })),
  /** Rows one wipes CSV export may hold; above it the export is refused, saying so; default 1,000,000. */
  WIPES_CSV_MAX_ROWS: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  /** The floor view (issue 32): `on` (default) takes machines' live reports; `off` refuses them with 404. */
  FLOOR_VIEW: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
});

export type CloudConfig = Readonly<
  Static<typeof Env> & {
    databasePath: string;
    /** Base boot images offered on /downloads. */
    imagesDir: string;
    publicBaseUrl: string;
    outbound: OutboundPolicy;
    /** Terms of tokens minted on /downloads for accounts that chose none (DEVICE_TOKEN_DEFAULT_*). */
    tokenDefaults: TokenTermsDefaults;
    /** IMAGE_DOWNLOADS_PER_ACCOUNT and IMAGE_DOWNLOADS_TOTAL, with their defaults. */
    downloadLimits: DownloadLimits;
    /** WEBHOOK_SECRET_ROLLOVER_HOURS in ms; undefined = the default (24 h). */
    webhookSecretRolloverMs: number | undefined;
    /** WEBHOOK_LEDGER_RETENTION_DAYS in ms; undefined = the default (30 days). */
    webhookLedgerRetentionMs: number | undefined;
    /** SHUTDOWN_TIMEOUT_SECONDS in ms (default 30 s). */
    shutdownTimeoutMs: number;
    /** TRUSTED_PROXIES parsed; undefined = no proxy is trusted. */
    trustedProxy: TrustedProxy | undefined;
    /** OBJECT_STORE and the S3_* settings: where certificate PDFs, reports and logos live. */
    objectStore: ObjectStoreSettings;
  }
>;

/** The two outbound switches, each `1` or off: one widens the scheme, the other the loopback range. */
export const outboundPolicyOf = (env: { WEBHOOK_ALLOW_HTTP?: string | undefined; WEBHOOK_ALLOW_LOOPBACK?: string | undefined }): OutboundPolicy =>
  Object.freeze({ allowHttp: env.WEBHOOK_ALLOW_HTTP === '1', allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === '1' });

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
}

/**
 * The cloud's configuration (CONTRACT.md), read once from the environment and frozen. Empty
 * strings count as unset, so `INTERNAL_API_SECRET=` fails closed like a missing secret.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): CloudConfig {
  const present = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const raw = {
    HOST: present('HOST') ?? '127.0.0.1',
    PORT: Number(present('PORT') ?? 3000),
    DATA_DIR: present('DATA_DIR') ?? join('data', 'cloud'),
    INTERNAL_API_SECRET: present('INTERNAL_API_SECRET'),
    DEVICE_TOKEN_PRIVATE_KEY: present('DEVICE_TOKEN_PRIVATE_KEY'),
    PUBLIC_BASE_URL: present('PUBLIC_BASE_URL'),
    PUBLIC_GATEWAY_URL: present('PUBLIC_GATEWAY_URL'),
    CERTIFICATE_SIGNING_KEY: present('CERTIFICATE_SIGNING_KEY'),
    IMAGE_DOWNLOADS_PER_ACCOUNT: present('IMAGE_DOWNLOADS_PER_ACCOUNT') === undefined ? undefined : Number(present('IMAGE_DOWNLOADS_PER_ACCOUNT')),
    IMAGE_DOWNLOADS_TOTAL: present('IMAGE_DOWNLOADS_TOTAL') === undefined ? undefined : Number(present('IMAGE_DOWNLOADS_TOTAL')),
    IMAGE_DOWNLOAD_STALL_SECONDS: present('IMAGE_DOWNLOAD_STALL_SECONDS') === undefined ? undefined : Number(present('IMAGE_DOWNLOAD_STALL_SECONDS')),
    DEVICE_TOKEN_DEFAULT_QUOTA: present('DEVICE_TOKEN_DEFAULT_QUOTA') === undefined ? undefined : Number(present('DEVICE_TOKEN_DEFAULT_QUOTA')),
    DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS: present('DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS') === undefined ? undefined : Number(present('DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS')),
    CERTIFICATE_PDF_CERTIFICATE: present('CERTIFICATE_PDF_CERTIFICATE'),
    CERTIFICATE_PDF_KEY: present('CERTIFICATE_PDF_KEY'),
    WEBHOOK_ALLOW_HTTP: present('WEBHOOK_ALLOW_HTTP'),
    WEBHOOK_ALLOW_LOOPBACK: present('WEBHOOK_ALLOW_LOOPBACK'),
    WEBHOOK_RETRY_BASE_MS: present('WEBHOOK_RETRY_BASE_MS') === undefined ? undefined : Number(present('WEBHOOK_RETRY_BASE_MS')),
    WEBHOOK_SECRET_ROLLOVER_HOURS: present('WEBHOOK_SECRET_ROLLOVER_HOURS') === undefined ? undefined : Number(present('WEBHOOK_SECRET_ROLLOVER_HOURS')),
    WEBHOOK_LEDGER_RETENTION_DAYS: present('WEBHOOK_LEDGER_RETENTION_DAYS') === undefined ? undefined : Number(present('WEBHOOK_LEDGER_RETENTION_DAYS')),
    MAX_DRIVES_PER_MACHINE: present('MAX_DRIVES_PER_MACHINE') === undefined ? undefined : Number(present('MAX_DRIVES_PER_MACHINE')),
    SHUTDOWN_TIMEOUT_SECONDS: present('SHUTDOWN_TIMEOUT_SECONDS') === undefined ? undefined : Number(present('SHUTDOWN_TIMEOUT_SECONDS')),
    TRUSTED_PROXIES: present('TRUSTED_PROXIES'),
    WIPES_CSV_MAX_ROWS: present('WIPES_CSV_MAX_ROWS') === undefined ? undefined : Number(present('WIPES_CSV_MAX_ROWS')),
    FLOOR_VIEW: present('FLOOR_VIEW'),
  };
  for (const key of Object.keys(raw) as (keyof typeof raw)[]) if (raw[key] === undefined) delete raw[key];
  const parsed = parseUnknown(Env, raw);
  if (!parsed.ok) throw new ConfigError(`invalid configuration ${parsed.path}: ${parsed.message}`);
  const config = parsed.value;
  let trustedProxy: TrustedProxy | undefined;
  try {
    trustedProxy = config.TRUSTED_PROXIES === undefined ? undefined : parseTrustedProxies(config.TRUSTED_PROXIES);
  } catch (error) {
    if (error instanceof TrustedProxiesError) throw new ConfigError(`invalid configuration ${error.message}`);
    throw error;
  }
  let objectStore: ObjectStoreSettings;
  try {
    objectStore = objectStoreSettings(env);
  } catch (error) {
    if (error instanceof ObjectStoreSettingsError) throw new ConfigError(`invalid configuration ${error.message}`);
    throw error;
  }
  return Object.freeze({
    objectStore,
    ...config,
    databasePath: join(config.DATA_DIR, 'cloud.sqlite'),
    imagesDir: join(config.DATA_DIR, 'images'),
    publicBaseUrl: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`,
    outbound: outboundPolicyOf(config),
    downloadLimits: Object.freeze({
      perAccount: config.IMAGE_DOWNLOADS_PER_ACCOUNT ?? DEFAULT_DOWNLOAD_LIMITS.perAccount,
      total: config.IMAGE_DOWNLOADS_TOTAL ?? DEFAULT_DOWNLOAD_LIMITS.total,
    }),
    tokenDefaults: Object.freeze({
      quotaLimit: config.DEVICE_TOKEN_DEFAULT_QUOTA ?? BUILT_IN_TOKEN_DEFAULTS.quotaLimit,
      lifetimeDays: config.DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS ?? BUILT_IN_TOKEN_DEFAULTS.lifetimeDays,
    }),
    webhookSecretRolloverMs: config.WEBHOOK_SECRET_ROLLOVER_HOURS === undefined ? undefined : config.WEBHOOK_SECRET_ROLLOVER_HOURS * 3_600_000,
    webhookLedgerRetentionMs: config.WEBHOOK_LEDGER_RETENTION_DAYS === undefined ? undefined : config.WEBHOOK_LEDGER_RETENTION_DAYS * 86_400_000,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS === undefined ? DEFAULT_SHUTDOWN_TIMEOUT_MS : config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    trustedProxy,
  });
}
