import { describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../sql/sqlite.js';
import { GroupCommit } from './group-commit.js';
import Database from 'better-sqlite3';

const table = () => {
  const handle = new Database(':memory:');
  handle.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  return new SqliteDatabase(handle);
};

describe('group commit', () => {
  it('runs writes of one event-loop turn in one transaction and resolves each with its result', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((v) => sut.run((tx) => tx.one('INSERT INTO t (v) VALUES (@v) RETURNING id', { v }))),
    );
    expect(results).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await db.one('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 3 });
  });

  it('rolls back only the failing write of a batch and rejects only its promise', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    const outcomes = await Promise.allSettled([
      sut.run((tx) => tx.run('INSERT INTO t (v) VALUES (@v)', { v: 'a' })),
      sut.run(async (tx) => {
        await tx.run('INSERT INTO t (v) VALUES (@v)', { v: 'b' });
        await tx.run('INSERT INTO t (v) VALUES (@v)', { v: 'a' }); // UNIQUE violation after a partial write
      }),
      sut.run((tx) => tx.run('INSERT INTO t (v) VALUES (@v)', { v: 'c' })),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await db.many<{ v: string }>('SELECT v FROM t ORDER BY v')).map((r) => r.v)).toEqual(['a', 'c']);
  });

  it('settles nothing before the batch committed', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    let seenInsideBatch = -1;
    const first = sut.run((tx) => tx.run('INSERT INTO t (v) VALUES (@v)', { v: 'a' }));
    const second = sut.run(async () => {
      seenInsideBatch = db.handle.inTransaction ? 1 : 0;
    });
    await Promise.all([first, second]);
    expect(seenInsideBatch).toBe(1);
    expect(db.handle.inTransaction).toBe(false);
  });
});
