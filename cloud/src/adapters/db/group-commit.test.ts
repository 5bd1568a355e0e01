import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

const table = () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  return db;
};

describe('group commit', () => {
  it('runs writes of one event-loop turn in one transaction and resolves each with its result', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((v) => sut.run(() => db.prepare('INSERT INTO t (v) VALUES (?) RETURNING id').get(v))),
    );
    expect(results).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(3);
  });

  it('rolls back only the failing write of a batch and rejects only its promise', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    const outcomes = await Promise.allSettled([
      sut.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('a')),
      sut.run(() => {
        db.prepare('INSERT INTO t (v) VALUES (?)').run('b');
        db.prepare('INSERT INTO t (v) VALUES (?)').run('a'); // UNIQUE violation after a partial write
      }),
      sut.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual(['a', 'c']);
  });

  it('settles nothing before the batch committed', async () => {
    const db = table();
    const sut = new GroupCommit(db);
    let seenInsideBatch = -1;
    const first = sut.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('a'));
    const second = sut.run(() => {
      seenInsideBatch = db.inTransaction ? 1 : 0;
    });
    await Promise.all([first, second]);
    expect(seenInsideBatch).toBe(1);
    expect(db.inTransaction).toBe(false);
  });
});
