import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type WritableDb } from '../../src/adapters/db/open.js';
import { sqliteWindowStore } from '../../src/adapters/db/rate-windows.js';
import { FixedWindowCounter } from '../../src/domain/rate-limit/fixed-window.js';

describe('fixed-window counter over the database', () => {
  let dir: string;
  let db: WritableDb;
  let stores: ReturnType<typeof sqliteWindowStore>[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-windows-'));
    db = openDatabase(join(dir, 'cloud.sqlite'));
    stores = [];
  });
  afterEach(() => {
    for (const store of stores) store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = () => {
    const s = sqliteWindowStore(db);
    stores.push(s);
    return s;
  };

  it('counts hits per key within the window and starts over after it', () => {
    const sut = new FixedWindowCounter(2, 1000, store(), 'test');
    expect(sut.hit('a', 0)).toMatchObject({ count: 1, remaining: 1, limited: false, resetAt: 1000 });
    expect(sut.hit('a', 10)).toMatchObject({ count: 2, remaining: 0, limited: false });
    expect(sut.hit('a', 20)).toMatchObject({ count: 3, remaining: 0, limited: true });
    expect(sut.hit('b', 20)).toMatchObject({ count: 1, limited: false });
    expect(sut.peek('a', 999)).toMatchObject({ count: 3 });
    expect(sut.hit('a', 1000)).toMatchObject({ count: 1, limited: false, resetAt: 2000 });
    sut.reset('a');
    expect(sut.peek('a', 1001).count).toBe(0);
  });

  it('keeps namespaces apart', () => {
    const shared = store();
    new FixedWindowCounter(5, 1000, shared, 'login').hit('k', 0);
    expect(new FixedWindowCounter(5, 1000, shared, 'api').peek('k', 1).count).toBe(0);
  });

  it('two connections to one file count one window', () => {
    const a = new FixedWindowCounter(10, 60_000, store(), 'api');
    const b = new FixedWindowCounter(10, 60_000, store(), 'api');
    for (let i = 0; i < 6; i++) a.hit('key', 100);
    for (let i = 0; i < 5; i++) b.hit('key', 200);
    expect(a.peek('key', 300)).toMatchObject({ count: 11, limited: true });
  });

  it('prunes finished windows only', () => {
    const s = store();
    const sut = new FixedWindowCounter(1, 1000, s, 'p');
    sut.hit('old', 0);
    sut.hit('live', 900);
    expect(s.prune(1000)).toBe(1);
    expect(sut.peek('live', 1000).count).toBe(1);
  });
});
