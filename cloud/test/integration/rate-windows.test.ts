import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseWindowStore } from '../../src/adapters/db/rate-windows.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { FixedWindowCounter } from '../../src/domain/rate-limit/fixed-window.js';
import { openTestStore } from '../support/test-store.js';

describe('fixed-window counter over the database', () => {
  let dir: string;
  let db: SqlDatabase;
  let closers: (() => Promise<void>)[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-windows-'));
    db = await openTestStore(dir);
    closers = [];
  });
  afterEach(async () => {
    for (const close of closers) await close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  /**
   * A window store over the test's database; `own` gives it a connection of its own, as another
   * process (another instance, on PostgreSQL) would have. On SQLite every store already writes
   * through its own connection to the file.
   */
  const store = (own = false) => {
    let over = db;
    if (own && db instanceof PostgresDatabase) {
      const other = PostgresDatabase.open(db.pool.options.connectionString!, { max: 2 });
      closers.push(() => other.close());
      over = other;
    }
    const s = databaseWindowStore(over);
    closers.unshift(() => s.close());
    return s;
  };

  it('counts hits per key within the window and starts over after it', async () => {
    const sut = new FixedWindowCounter(2, 1000, store(), 'test');
    expect(await sut.hit('a', 0)).toMatchObject({ count: 1, remaining: 1, limited: false, resetAt: 1000 });
    expect(await sut.hit('a', 10)).toMatchObject({ count: 2, remaining: 0, limited: false });
    expect(await sut.hit('a', 20)).toMatchObject({ count: 3, remaining: 0, limited: true });
    expect(await sut.hit('b', 20)).toMatchObject({ count: 1, limited: false });
    expect(await sut.peek('a', 999)).toMatchObject({ count: 3 });
    expect(await sut.hit('a', 1000)).toMatchObject({ count: 1, limited: false, resetAt: 2000 });
    await sut.reset('a');
    expect((await sut.peek('a', 1001)).count).toBe(0);
  });

  it('keeps namespaces apart', async () => {
    const shared = store();
    await new FixedWindowCounter(5, 1000, shared, 'login').hit('k', 0);
    expect((await new FixedWindowCounter(5, 1000, shared, 'api').peek('k', 1)).count).toBe(0);
  });

  it('two connections to one database count one window', async () => {
    const a = new FixedWindowCounter(10, 60_000, store(true), 'api');
    const b = new FixedWindowCounter(10, 60_000, store(true), 'api');
    for (let i = 0; i < 6; i++) await a.hit('key', 100);
    for (let i = 0; i < 5; i++) await b.hit('key', 200);
    expect(await a.peek('key', 300)).toMatchObject({ count: 11, limited: true });
  });

  it('loses no hit when two connections count the same key at once', async () => {
    const a = new FixedWindowCounter(1000, 60_000, store(true), 'api');
    const b = new FixedWindowCounter(1000, 60_000, store(true), 'api');
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).hit('busy', 100 + i)));
    expect(await b.peek('busy', 200)).toMatchObject({ count: 40 });
  });

  it('keeps epoch milliseconds beyond 32 bits', async () => {
    const now = Date.parse('2026-11-22T12:00:00.000Z');
    const sut = new FixedWindowCounter(5, 60_000, store(), 'ms');
    expect(await sut.hit('k', now)).toMatchObject({ count: 1, resetAt: now + 60_000 });
    expect(await sut.peek('k', now + 59_999)).toMatchObject({ count: 1, resetAt: now + 60_000 });
  });

  it('prunes finished windows only', async () => {
    const s = store();
    const sut = new FixedWindowCounter(1, 1000, s, 'p');
    await sut.hit('old', 0);
    await sut.hit('live', 900);
    expect(await s.prune(1000)).toBe(1);
    expect((await sut.peek('live', 1000)).count).toBe(1);
  });
});
