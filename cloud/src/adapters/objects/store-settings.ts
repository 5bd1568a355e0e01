import type { S3StoreSettings } from './s3-store.js';

/** Where objects live: `DATA_DIR/objects` (the default), or one S3-compatible bucket. */
export type ObjectStoreSettings = { kind: 'local' } | { kind: 's3'; s3: S3StoreSettings };

/** A setting is missing or wrong; the message names it, so the cloud never starts half-configured. */
export class ObjectStoreSettingsError extends Error {
  readonly code = 'object_store_settings';
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'ObjectStoreSettingsError';
  }
}

const S3_REQUIRED = ['S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * `OBJECT_STORE=local|s3` and the `S3_*` settings (operations guide). Empty counts as unset. An
 * S3 setting given while OBJECT_STORE is not `s3` is refused too: an operator who set the bucket
 * but forgot the switch would otherwise keep writing to the local folder unawares.
 */
export function objectStoreSettings(env: Readonly<Record<string, string | undefined>>): ObjectStoreSettings {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const kind = value('OBJECT_STORE') ?? 'local';
  if (kind !== 'local' && kind !== 's3') throw new ObjectStoreSettingsError('OBJECT_STORE', `must be local or s3, not ${JSON.stringify(kind)}`);
  const given = Object.keys(env).filter((name) => name.startsWith('S3_') && value(name) !== undefined);
  if (kind === 'local') {
    if (given.length > 0) throw new ObjectStoreSettingsError('OBJECT_STORE', `${given.sort().join(', ')} set but OBJECT_STORE is not s3`);
    return { kind };
  }
  for (const name of S3_REQUIRED) if (value(name) === undefined) throw new ObjectStoreSettingsError(name, 'required when OBJECT_STORE=s3');
  const endpoint = value('S3_ENDPOINT');
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) throw new ObjectStoreSettingsError('S3_ENDPOINT', `must be an http(s) URL, not ${JSON.stringify(endpoint)}`);
  const pathStyle = value('S3_FORCE_PATH_STYLE') ?? '0';
  if (pathStyle !== '0' && pathStyle !== '1') throw new ObjectStoreSettingsError('S3_FORCE_PATH_STYLE', `must be 0 or 1, not ${JSON.stringify(pathStyle)}`);
  return {
    kind,
    s3: {
      endpoint,
      region: value('S3_REGION')!,
      bucket: value('S3_BUCKET')!,
      accessKeyId: value('S3_ACCESS_KEY_ID')!,
      secretAccessKey: value('S3_SECRET_ACCESS_KEY')!,
      forcePathStyle: pathStyle === '1',
    },
  };
}
