import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { s3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { loadCertificateRuntime } from '../../src/cli/certificates.js';
import { loadConfig } from '../../src/config.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;

/** Issue 33 item 1: OBJECT_STORE=s3 is checked at start; the cloud never starts half-configured. */
describe('the object store chosen at start', () => {
  let dir: string;
  let s3: RunningS3;
  let db: SqliteDatabase;
  const s3Env = () => ({
    DATA_DIR: dir,
    OBJECT_STORE: 's3',
    S3_ENDPOINT: s3.settings.endpoint!,
    S3_REGION: s3.settings.region,
    S3_BUCKET: s3.settings.bucket,
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: '1',
  });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-objects-start-'));
    s3 = await startS3();
    db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  });
  afterAll(async () => {
    await db.close();
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with OBJECT_STORE=s3 the certificates store is the bucket', async () => {
    const runtime = await loadCertificateRuntime(loadConfig(s3Env()), db);
    await runtime.store.put('certificates/1/start.pdf', new Uint8Array([37, 80, 68, 70]));
    const direct = s3ObjectStore(s3.settings);
    expect(Array.from((await direct.get('certificates/1/start.pdf'))!)).toEqual([37, 80, 68, 70]);
    direct.close();
  });

  it('an unreachable S3_ENDPOINT stops the start, naming the setting', async () => {
    const config = loadConfig({ ...s3Env(), S3_ENDPOINT: 'http://127.0.0.1:1' });
    await expect(loadCertificateRuntime(config, db)).rejects.toThrow(/object store unusable: S3_ENDPOINT/);
  });

  it('a bucket that does not exist stops the start, naming S3_BUCKET', async () => {
    const config = loadConfig({ ...s3Env(), S3_BUCKET: 'missing-bucket' });
    await expect(loadCertificateRuntime(config, db)).rejects.toThrow(/object store unusable: S3_BUCKET/);
  });

  it('erasure-cloud worker with OBJECT_STORE=s3 and no S3_BUCKET exits 2, naming it', async () => {
    const { S3_BUCKET: _bucket, ...env } = s3Env();
    const failed = await run(process.execPath, [BIN, 'worker'], { env: { ...process.env, ...env } }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('S3_BUCKET: required when OBJECT_STORE=s3');
  });
});
