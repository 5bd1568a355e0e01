import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteWindowStore } from '../../src/adapters/db/rate-windows.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { FixedWindowCounter } from '../../src/domain/rate-limit/fixed-window.js';

describe('fixed-window counter over the database', () => {
  let dir: string;
  let db: SqliteDatabase;
  let stores: ReturnType<typeof sqliteWindowStore>[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-windows-'));
    db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
    stores = [];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = () => {
    const s = sqliteWindowStore(db);
    stores.push(s);
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

  it('two connections to one file count one window', async () => {
    const a = new FixedWindowCounter(10, 60_000, store(), 'api');
    const b = new FixedWindowCounter(10, 60_000, store(), 'api');
    for (let i = 0; i < 6; i++) await a.hit('key', 100);
    for (let i = 0; i < 5; i++) await b.hit('key', 200);
    expect(await a.peek('key', 300)).toMatchObject({ count: 11, limited: true });
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
