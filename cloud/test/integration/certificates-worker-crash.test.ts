import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { listObjects, requireBuiltCloud, startCli, storeDueCertificates, waitFor, workerStore, type Child } from '../certificates/processes.js';

const RESULTS = 12;
const KILLS = 3;

describe('erasure-cloud worker killed with SIGKILL mid-generation', () => {
  let dir: string;
  let db: SqlDatabase;
  /** The workers' store: DATA_DIR's SQLite file, or this PostgreSQL database. */
  let databaseUrl: string | undefined;
  const children: Child[] = [];
  const env = () => ({ DATA_DIR: dir, PUBLIC_BASE_URL: 'https://erasure.test', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });

  beforeAll(async () => {
    requireBuiltCloud();
    dir = mkdtempSync(join(tmpdir(), 'erasure-crash-'));
    ({ db, databaseUrl } = await workerStore(dir));
    await storeDueCertificates(db, RESULTS);
  });
  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const generating = async () =>
    (await db.one<{ public_id: string }>(`SELECT public_id FROM certificates WHERE status = 'generating'`))?.public_id;

  it('resumes after each restart with exactly one certificate and one pair of objects per result', async () => {
    const killed = new Set<string>();
    for (let round = 0; round < KILLS; round++) {
      const worker = startCli(['worker', '--lease-seconds', '2'], env());
      children.push(worker);
      // Kill at a random moment of a generation: after the claim, mid-render, between or after the puts.
      const victim = await waitFor(generating, 20_000, 2, 'a certificate in generating');
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
      worker.process.kill('SIGKILL');
      expect(await worker.exited).toBe('SIGKILL');
      killed.add(victim);
    }

    const survivor = startCli(['worker', '--lease-seconds', '2'], env());
    children.push(survivor);
    await waitFor(
      async () => (await db.one<{ n: number }>(`SELECT count(*) AS n FROM certificates WHERE status = 'complete'`))!.n === RESULTS,
      60_000,
      50,
      'every certificate complete',
    );
    survivor.process.kill('SIGTERM');
    expect(await survivor.exited).toBe(0); // graceful stop

    const certs = await db.many<Record<string, string>>('SELECT * FROM certificates ORDER BY sequence');
    expect(certs.map((c) => c.certificate_number)).toEqual(Array.from({ length: RESULTS }, (_, i) => `CW-${String(i + 1).padStart(6, '0')}`));
    expect(new Set(certs.map((c) => c.wipe_result_id)).size).toBe(RESULTS);
    expect((await db.many<{ status: string }>(`SELECT DISTINCT status FROM jobs`)).map((r) => r.status)).toEqual(['done']);
    expect((await db.many<{ certificate_status: string }>(`SELECT DISTINCT certificate_status FROM wipe_results`)).map((r) => r.certificate_status)).toEqual([
      'complete',
    ]);

    const objects = listObjects(join(dir, 'objects'));
    expect(objects).toHaveLength(2 * RESULTS);
    expect(objects).toEqual(certs.flatMap((c) => [c.certificate_key, c.report_key]).sort());
    for (const c of certs) {
      const digest = (key: string) => createHash('sha256').update(readFileSync(join(dir, 'objects', key))).digest('hex');
      expect(digest(c.certificate_key!)).toBe(c.certificate_sha256);
      expect(digest(c.report_key!)).toBe(c.report_sha256);
    }
    // The interrupted certificates were really resumed by a later claim, not skipped.
    const attempts = async (id: string) =>
      (await db.one<{ attempts: number }>(
        `SELECT j.attempts FROM jobs j JOIN certificates c ON c.wipe_result_id = j.subject_id WHERE c.public_id = @id`,
        { id },
      ))!.attempts;
    for (const id of killed) expect(await attempts(id)).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
