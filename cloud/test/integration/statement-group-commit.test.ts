import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/support/postgres.js';
import { StatementGroupCommit } from '../../src/adapters/db/group-commit.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';

// PostgreSQL's group commit for one-statement writes (the check-in), on a real server.
let postgres: TestPostgres;
let db: PostgresDatabase;
let observer: PostgresDatabase;
let url: string;

beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
});

beforeEach(async () => {
  url = await postgres.createDatabase();
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
    // A deferred constraint trigger that sleeps makes the COMMIT itself slow: a statement
    // answered before its COMMIT returned would not be visible to the observer yet.
    await db.script(`CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$;
                     CREATE CONSTRAINT TRIGGER t_slow_commit AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED
                       FOR EACH ROW EXECUTE FUNCTION slow_commit();`);
    await observer.one('SELECT 1 AS warm');
    const sut = new StatementGroupCommit(db.pipelined());
    const seen = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        insert(sut, `v${i}`).then((row) => observer.one<{ v: string }>('SELECT v FROM t WHERE id = @id', { id: row!.id })),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 3 }, (_, i) => ({ v: `v${i}` })));
  });

  it('runs a batch in the order of its statements’ keys, arrival order among equal keys', async () => {
    const sut = new StatementGroupCommit(db.pipelined());
    const add = (key: string, v: string) => sut.keyed(key).one<{ id: number }>('INSERT INTO t (v) VALUES (@v) RETURNING id', { v });
    await Promise.all([add('c', 'c1'), add('a', 'a1'), add('b', 'b1'), add('a', 'a2')]);
    expect((await observer.many<{ v: string }>('SELECT v FROM t ORDER BY id')).map((r) => r.v)).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('never deadlocks two instances’ batches that lock the same rows in opposite arrival order', async () => {
    await db.script(`CREATE TABLE r (k TEXT PRIMARY KEY, n INT NOT NULL); INSERT INTO r VALUES ('x', 0), ('y', 0);`);
    const other = PostgresDatabase.open(url);
    try {
      const first = new StatementGroupCommit(db.pipelined());
      const second = new StatementGroupCommit(other.pipelined());
      // Each statement locks its row, then holds it a while: in arrival order the two batches
      // would each hold one row and wait for the other's.
      const lock = (sut: StatementGroupCommit, k: string) =>
        sut.keyed(k).one<{ tx: string }>(
          `WITH locked AS (UPDATE r SET n = n + 1 WHERE k = @k RETURNING k)
           SELECT CAST(txid_current() AS TEXT) AS tx, pg_sleep(0.2) IS NULL AS slept FROM locked`,
          { k },
        );
      const answers = await Promise.all([lock(first, 'y'), lock(first, 'x'), lock(second, 'x'), lock(second, 'y')]);
      // Each batch committed whole: a deadlock would have rolled one back and rerun its statements alone.
      expect(answers[0]!.tx).toBe(answers[1]!.tx);
      expect(answers[2]!.tx).toBe(answers[3]!.tx);
      expect(await observer.many('SELECT k, n FROM r ORDER BY k')).toEqual([
        { k: 'x', n: 2 },
        { k: 'y', n: 2 },
      ]);
    } finally {
      await other.close();
    }
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
