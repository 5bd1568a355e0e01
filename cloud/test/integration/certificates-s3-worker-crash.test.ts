import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ObjectStore, type S3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { requireBuiltCloud, startCli, storeDueCertificates, waitFor, workerStore, type Child } from '../certificates/processes.js';
import { startHeldS3Proxy, type HeldS3Proxy } from '../support/held-s3-proxy.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';

const RESULTS = 6;

/** Issue 33 item 3: a worker killed mid-upload leaves no object, and the job runs again. */
describe('erasure-cloud worker on the S3 store killed with SIGKILL during uploads', () => {
  let dir: string;
  let db: SqlDatabase;
  let databaseUrl: string | undefined;
  let s3: RunningS3;
  let proxy: HeldS3Proxy;
  let bucket: S3ObjectStore;
  let lister: S3Client;
  const children: Child[] = [];
  // The worker reaches the bucket through the proxy, which holds certificate uploads halfway.
  const env = () => ({
    DATA_DIR: dir,
    PUBLIC_BASE_URL: 'https://erasure.test',
    OBJECT_STORE: 's3',
    S3_ENDPOINT: proxy.endpoint,
    S3_REGION: s3.settings.region,
    S3_BUCKET: s3.settings.bucket,
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });

  beforeAll(async () => {
    requireBuiltCloud();
    dir = mkdtempSync(join(tmpdir(), 'erasure-s3-crash-'));
    s3 = await startS3();
    // Only the certificates' PUTs are held: the start check's probe object goes through.
    proxy = await startHeldS3Proxy(s3.settings.endpoint!, (path) => path.startsWith(`/${s3.settings.bucket}/certificates/`));
    bucket = s3ObjectStore(s3.settings);
    const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = s3.settings;
    lister = new S3Client({ endpoint, region, forcePathStyle, credentials: { accessKeyId, secretAccessKey } });
    ({ db, databaseUrl } = await workerStore(dir));
    await storeDueCertificates(db, RESULTS);
  });
  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    lister?.destroy();
    bucket?.close();
    await proxy?.close();
    await s3?.stop();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every key in the bucket under `certificates/`. */
  const certificateObjects = async () =>
    ((await lister.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: 'certificates/' }))).Contents ?? []).map((o) => o.Key!).sort();
  /** `qpdf --check` and `pdfsig` of an object's bytes, as a reader of the bucket would open them. */
  const checkPdf = (key: string, bytes: Uint8Array) => {
    const file = join(dir, `${createHash('sha256').update(key).digest('hex')}.pdf`);
    writeFileSync(file, bytes);
    return {
      qpdf: spawnSync('qpdf', ['--check', file], { encoding: 'utf8' }).status,
      pdfsig: /Signature is Valid\./.test(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout),
    };
  };

  it('no partial object is left in the bucket, and after a restart every certificate is complete exactly once', async () => {
    const first = startCli(['worker', '--lease-seconds', '2'], env());
    children.push(first);
    // Killed while uploads are held halfway through their bodies: mid-upload, not before or after.
    const held = await waitFor(() => proxy.held().length >= 2 && proxy.held(), 60_000, 10, 'two certificate uploads held halfway');
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await waitFor(() => proxy.open() === 0, 10_000, 10, 'the cut uploads closed');

    // Nothing in the bucket is a part of a PDF: none of the cut uploads exists, whatever else might.
    const afterKill = await certificateObjects();
    for (const path of held) expect(afterKill).not.toContain(path.slice(`${s3.settings.bucket}/`.length));
    for (const key of afterKill) expect(checkPdf(key, (await bucket.get(key))!)).toEqual({ qpdf: 0, pdfsig: true });
    const interrupted = await db.many<{ public_id: string }>(`SELECT public_id FROM certificates WHERE status = 'generating'`);
    expect(interrupted.length).toBeGreaterThan(0);

    proxy.release();
    // The new worker takes the killed claims over once their 2-second lease (--lease-seconds) has run out.
    const survivor = startCli(['worker', '--lease-seconds', '2'], env());
    children.push(survivor);
    await waitFor(
      async () => (await db.one<{ n: number }>(`SELECT count(*) AS n FROM certificates WHERE status = 'complete'`))!.n === RESULTS,
      90_000,
      50,
      'every certificate complete',
    );
    survivor.process.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);

    const certs = await db.many<{ public_id: string; certificate_key: string; certificate_sha256: string; report_key: string; report_sha256: string }>(
      'SELECT * FROM certificates ORDER BY sequence',
    );
    expect(certs).toHaveLength(RESULTS);
    expect(await certificateObjects()).toEqual(certs.flatMap((c) => [c.certificate_key, c.report_key]).sort());
    for (const c of certs) {
      for (const [key, sha256] of [
        [c.certificate_key, c.certificate_sha256],
        [c.report_key, c.report_sha256],
      ] as const) {
        const bytes = (await bucket.get(key))!;
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
        expect(checkPdf(key, bytes)).toEqual({ qpdf: 0, pdfsig: true });
      }
    }
    expect((await db.many<{ status: string }>('SELECT DISTINCT status FROM jobs')).map((r) => r.status)).toEqual(['done']);
    // The interrupted certificates were run again by a later claim, not skipped.
    for (const { public_id } of interrupted) {
      const { attempts } = (await db.one<{ attempts: number }>(
        'SELECT j.attempts FROM jobs j JOIN certificates c ON c.wipe_result_id = j.subject_id WHERE c.public_id = @id',
        { id: public_id },
      ))!;
      expect(attempts).toBeGreaterThanOrEqual(2);
    }
  }, 180_000);
});
