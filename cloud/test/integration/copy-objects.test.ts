import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { adminCommand } from '../../src/cli/admin-command.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Issue 33 item 4: `erasure-cloud admin copy-objects --to s3`, moving an existing deployment. */
describe('admin copy-objects --to s3', () => {
  let dir: string;
  let s3: RunningS3;
  const env = () => ({
    DATA_DIR: dir,
    OBJECT_STORE: 's3',
    S3_ENDPOINT: s3.settings.endpoint!,
    S3_REGION: s3.settings.region,
    S3_BUCKET: s3.settings.bucket,
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: '1',
  });
  const local = (i: number) => `certificates/acct_${i % 7}/cert_${i}/CW-${String(i).padStart(6, '0')}.pdf`;
  const content = (i: number) => Buffer.from(`%PDF-1.7 certificate ${i} ${'x'.repeat(i % 50)}`);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-copy-objects-'));
    s3 = await startS3();
    for (let i = 0; i < 1000; i++) {
      const path = join(dir, 'objects', ...local(i).split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content(i));
    }
    // An unfinished put's leftover is not an object: the totals below count 1,000, not 1,001.
    mkdirSync(join(dir, 'objects', '.tmp'));
    writeFileSync(join(dir, 'objects', '.tmp', 'crashed.part'), 'half');
  });
  afterAll(async () => {
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies 1,000 local objects byte for byte, then a second run copies nothing, and nothing is deleted locally', async () => {
    const first = await adminCommand(env(), 'copy-objects', { to: 's3' });
    expect(first).toMatchObject({ total: 1000, copied: 1000, skipped: 0, to: 'certificates' });
    const bucket = s3ObjectStore(s3.settings);
    for (const i of [0, 1, 499, 999]) expect(sha((await bucket.get(local(i)))!)).toBe(sha(content(i)));

    // A lost object (a run interrupted before it) is copied again by the next run, and only it.
    await bucket.remove(local(42));
    bucket.close();
    expect(await adminCommand(env(), 'copy-objects', { to: 's3' })).toMatchObject({ total: 1000, copied: 1, skipped: 999 });
    expect(await adminCommand(env(), 'copy-objects', { to: 's3' })).toMatchObject({ total: 1000, copied: 0, skipped: 1000 });
    expect(readdirSync(join(dir, 'objects', 'certificates', 'acct_0')).length).toBe(143);
  }, 180_000);

  it('without --to s3, or without OBJECT_STORE=s3, it refuses, saying what is missing', async () => {
    await expect(adminCommand(env(), 'copy-objects', {})).rejects.toThrow('copy-objects needs --to s3');
    await expect(adminCommand({ DATA_DIR: dir }, 'copy-objects', { to: 's3' })).rejects.toThrow('needs OBJECT_STORE=s3');
  });
});
