import { describe, expect, it } from 'vitest';
import { objectStoreSettings } from './store-settings.js';

const S3 = { OBJECT_STORE: 's3', S3_REGION: 'eu-west-1', S3_BUCKET: 'certs', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

describe('object store settings', () => {
  it('unset OBJECT_STORE is the local folder, as before', () => {
    expect(objectStoreSettings({})).toEqual({ kind: 'local' });
  });

  it('OBJECT_STORE=s3 with every required setting gives the bucket, path style off unless 1', () => {
    expect(objectStoreSettings({ ...S3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: '1' })).toEqual({
      kind: 's3',
      s3: { endpoint: 'http://minio:9000', region: 'eu-west-1', bucket: 'certs', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true },
    });
    expect(objectStoreSettings(S3)).toMatchObject({ s3: { endpoint: undefined, forcePathStyle: false } });
  });

  it.each(['S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])('OBJECT_STORE=s3 without %s is refused, naming it', (name) => {
    expect(() => objectStoreSettings({ ...S3, [name]: '' })).toThrow(`${name}: required when OBJECT_STORE=s3`);
  });

  it('an unknown OBJECT_STORE, a bad S3_ENDPOINT or S3_FORCE_PATH_STYLE is refused, naming the setting', () => {
    expect(() => objectStoreSettings({ OBJECT_STORE: 'nfs' })).toThrow(/^OBJECT_STORE:/);
    expect(() => objectStoreSettings({ ...S3, S3_ENDPOINT: 'minio:9000' })).toThrow(/^S3_ENDPOINT:/);
    expect(() => objectStoreSettings({ ...S3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/^S3_FORCE_PATH_STYLE:/);
  });

  it('S3 settings without OBJECT_STORE=s3 are refused rather than silently ignored', () => {
    expect(() => objectStoreSettings({ S3_BUCKET: 'certs' })).toThrow('OBJECT_STORE: S3_BUCKET set but OBJECT_STORE is not s3');
  });
});
