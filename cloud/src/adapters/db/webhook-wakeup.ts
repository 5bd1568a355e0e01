import type { SqlDatabase, SqlRunner } from '../sql/database.js';
import { listenOnChannel } from '../sql/listen.js';

/**
 * Waking delivery workers when deliveries become due, after the transaction that made them due
 * committed. On PostgreSQL that is LISTEN/NOTIFY: a NOTIFY sent inside a transaction is
 * delivered when it commits (never before, and not at all on rollback), to every listening
 * session of the database, so the workers of every host wake, not only this process's.
 * On SQLite there is one host and the in-process wake suffices: the worker's transaction
 * queues behind the device transaction that woke it, so it sees the new deliveries.
 */
const CHANNEL = 'erasure_webhook_deliveries_due';

/** Inside the transaction that made deliveries due: wakes the listening workers when it commits (PostgreSQL; nothing on SQLite). */
export async function notifyDeliveriesDue(db: SqlRunner): Promise<void> {
  if (db.dialect === 'postgres') await db.one(`SELECT pg_notify('${CHANNEL}', '') AS notified`);
}

/**
 * Calls `wake` whenever a transaction that made deliveries due commits, from any process on the
 * database (PostgreSQL: one session of its own, outside the pool, listening; reconnected when
 * dropped, with a wake after each (re)connect for what committed meanwhile). A no-op on SQLite.
 * The worker's poll stays the fallback while the session is down.
 */
export function listenForDueDeliveries(
  db: SqlDatabase,
  wake: () => void,
  log?: { error(details: object, message: string): void },
): { close(): Promise<void> } {
  return listenOnChannel(db, CHANNEL, { onNotification: () => wake(), onConnected: wake }, log, 'webhook wake-up listener could not connect');
}
