import type { WindowStore, WindowRow } from '../../domain/rate-limit/fixed-window.js';
import type { SqlDatabase } from '../sql/database.js';
import { SqliteDatabase } from '../sql/sqlite.js';
import { openConnection } from './open.js';

/** Finished windows are swept once per this many hits, so the table holds live windows only. */
const PRUNE_EVERY = 1000;

const HIT_SQL = `INSERT INTO rate_windows (key, count, reset_at) VALUES (@key, 1, @reset)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_windows.reset_at <= @now THEN 1 ELSE rate_windows.count + 1 END,
       reset_at = CASE WHEN rate_windows.reset_at <= @now THEN @reset ELSE rate_windows.reset_at END
     RETURNING count, reset_at AS "resetAt"`;

/**
 * Rate-limit windows in the cloud's database, shared by every process (and, on PostgreSQL, every
 * instance) that opens it; nothing of a window lives in this process. Each hit is one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING`, which starts a fresh window when the old one has
 * ended, so two processes counting the same key can never lose a hit (on PostgreSQL the upsert
 * takes the row lock and re-reads the row, under READ COMMITTED too).
 *
 * On SQLite it writes through a second connection with `synchronous=NORMAL`: in WAL mode that
 * still survives a process crash, and only skips the per-commit fsync, which a counter does not
 * need (a power cut may forget the last few hits of a window) and a 600-per-minute API must not
 * pay. Its own connection also keeps a hit from waiting behind the main connection's transaction.
 * On PostgreSQL it uses the store's pool as it is: each hit is its own autocommitted statement.
 */
export function databaseWindowStore(db: SqlDatabase): WindowStore & { close(): Promise<void> } {
  const path = db.dialect === 'sqlite' && db instanceof SqliteDatabase ? db.handle.name : undefined;
  let conn: SqlDatabase = db;
  if (path !== undefined && path !== ':memory:') {
    const handle = openConnection(path);
    handle.pragma('synchronous = NORMAL');
    conn = new SqliteDatabase(handle);
  }
  // Only paces the sweep of finished windows; no count depends on it.
  let hits = 0;
  return {
    async hit(key, windowMs, nowMs) {
      hits += 1;
      if (hits % PRUNE_EVERY === 0) await conn.run('DELETE FROM rate_windows WHERE reset_at <= @now', { now: nowMs });
      return (await conn.one<WindowRow>(HIT_SQL, { key, now: nowMs, reset: nowMs + windowMs }))!;
    },
    peek: (key, nowMs) =>
      conn.one<WindowRow>('SELECT count, reset_at AS "resetAt" FROM rate_windows WHERE key = @key AND reset_at > @now', { key, now: nowMs }),
    reset: async (key) => {
      await conn.run('DELETE FROM rate_windows WHERE key = @key', { key });
    },
    release: async (key, nowMs) => {
      await conn.run('UPDATE rate_windows SET count = count - 1 WHERE key = @key AND reset_at > @now AND count > 0', { key, now: nowMs });
    },
    prune: (nowMs) => conn.run('DELETE FROM rate_windows WHERE reset_at <= @now', { now: nowMs }),
    close: async () => {
      if (conn !== db) await conn.close();
    },
  };
}
