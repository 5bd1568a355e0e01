import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/support/postgres.js';
import { StatementGroupCommit } from '../../src/adapters/db/group-commit.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';

// PostgreSQL's group commit for one-statement writes (the check-in), on a real server.
let postgres: TestPostgres;
let db: PostgresDatabase;
let observer: PostgresDatabase;

beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
});

beforeEach(async () => {
  const url = await postgres.createDatabase();
  db = PostgresDatabase.open(url);
  observer = PostgresDatabase.open(url);
  await db.script(`CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v TEXT NOT NULL UNIQUE);
                   CREATE TABLE d (v TEXT NOT NULL UNIQUE DEFERRABLE INITIALLY DEFERRED);`);
  return async () => {
    await db.close();
    await observer.close();
  };
});

const insert = (sut: StatementGroupCommit, v: string) =>
  sut.one<{ id: number; tx: string }>('INSERT INTO t (v) VALUES (@v) RETURNING id, CAST(txid_current() AS TEXT) AS tx', { v });

describe('statement group commit on PostgreSQL', () => {
  it('runs the statements that arrive together in one transaction and answers each its own result', async () => {
    const sut = new StatementGroupCommit(db.pipelined());
    const rows = await Promise.all(Array.from({ length: 20 }, (_, i) => insert(sut, `v${i}`)));
    expect(new Set(rows.map((r) => r!.tx)).size).toBe(1);
    expect(new Set(rows.map((r) => r!.id)).size).toBe(20);
    expect(await observer.one('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 20 });
  });

  it('settles each statement only once its batch committed: another connection already sees it', async () => {
    const sut = new StatementGroupCommit(db.pipelined());
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        insert(sut, `v${i}`).then((row) => observer.one<{ v: string }>('SELECT v FROM t WHERE id = @id', { id: row!.id })),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 5 }, (_, i) => ({ v: `v${i}` })));
  });

  it('gathers the statements that arrive while a batch is in flight into the next batch', async () => {
    const sut = new StatementGroupCommit(db.pipelined());
    const slow = sut.one<{ tx: string }>('SELECT CAST(txid_current() AS TEXT) AS tx, pg_sleep(0.3) IS NULL AS slept');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await Promise.all(['a', 'b', 'c', 'd'].map((v) => insert(sut, v)));
    expect(new Set(later.map((r) => r!.tx)).size).toBe(1);
    expect(later[0]!.tx).not.toBe((await slow)!.tx);
  });

  it('fails only the statement that failed; the rest of its batch is committed', async () => {
    await db.run(`INSERT INTO t (v) VALUES ('taken')`);
    const sut = new StatementGroupCommit(db.pipelined());
    const outcomes = await Promise.allSettled([insert(sut, 'a'), insert(sut, 'taken'), insert(sut, 'c')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect((await observer.many<{ v: string }>('SELECT v FROM t ORDER BY v')).map((r) => r.v)).toEqual(['a', 'c', 'taken']);
  });

  it('rejects every statement of a batch whose COMMIT failed, and commits none of them', async () => {
    const sut = new StatementGroupCommit(db.pipelined());
    // The deferred UNIQUE constraint is checked at COMMIT: both statements succeed, the commit fails.
    const outcomes = await Promise.allSettled([
      sut.run(`INSERT INTO d (v) VALUES ('same')`),
      insert(sut, 'bystander'),
      sut.run(`INSERT INTO d (v) VALUES ('same')`),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await observer.one('SELECT (SELECT COUNT(*) FROM t) + (SELECT COUNT(*) FROM d) AS n')).toEqual({ n: 0 });
  });
});
