import Database from 'better-sqlite3';
import type { WindowStore, WindowRow } from '../../domain/rate-limit/fixed-window.js';
import type { WritableDb } from './open.js';

/** Finished windows are swept once per this many hits, so the table holds live windows only. */
const PRUNE_EVERY = 1000;

/**
 * Rate-limit windows in the cloud's SQLite file, shared by every process that opens it. Each hit
 * is one `INSERT … ON CONFLICT DO UPDATE … RETURNING`, which starts a fresh window when the old
 * one has ended, so two processes counting the same key can never lose a hit.
 *
 * It writes through a second connection with `synchronous=NORMAL`: in WAL mode that still
 * survives a process crash, and only skips the per-commit fsync, which a counter does not need
 * (a power cut may forget the last few hits of a window) and a 600-per-minute API must not pay.
 */
export function sqliteWindowStore(db: WritableDb): WindowStore & { close(): void } {
  const conn = db.name === ':memory:' ? db : new Database(db.name);
  if (conn !== db) {
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('busy_timeout = 5000');
  }
  const hit = conn.prepare(
    `INSERT INTO rate_windows (key, count, reset_at) VALUES (@key, 1, @now + @window)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
       reset_at = CASE WHEN reset_at <= @now THEN @now + @window ELSE reset_at END
     RETURNING count, reset_at AS resetAt`,
  );
  const peek = conn.prepare('SELECT count, reset_at AS resetAt FROM rate_windows WHERE key = ? AND reset_at > ?');
  const reset = conn.prepare('DELETE FROM rate_windows WHERE key = ?');
  const prune = conn.prepare('DELETE FROM rate_windows WHERE reset_at <= ?');
  let hits = 0;
  return {
    hit(key, windowMs, nowMs) {
      hits += 1;
      if (hits % PRUNE_EVERY === 0) prune.run(nowMs);
      return hit.get({ key, now: nowMs, window: windowMs }) as WindowRow;
    },
    peek: (key, nowMs) => peek.get(key, nowMs) as WindowRow | undefined,
    reset: (key) => void reset.run(key),
    prune: (nowMs) => prune.run(nowMs).changes,
    close: () => {
      if (conn !== db) conn.close();
    },
  };
}
