import pg from 'pg';
import type { SqlDatabase, SqlRunner } from '../sql/database.js';
import { PostgresDatabase } from '../sql/postgres.js';

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

/** Seconds between attempts to (re)connect the listening session. */
const RECONNECT_MS = 1000;

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
  if (!(db instanceof PostgresDatabase)) return { close: async () => undefined };
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  const later = () => {
    if (!closed) timer = setTimeout(() => (connecting = connect()), RECONNECT_MS);
  };
  const connect = async () => {
    // The pool's own options (the password is a non-enumerable property there: pass the object, not a copy).
    const session = new pg.Client(db.pool.options);
    session.on('notification', () => wake());
    session.on('error', () => undefined); // 'end' follows
    session.on('end', () => {
      if (client !== session) return;
      client = undefined;
      later();
    });
    try {
      await session.connect();
      await session.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      log?.error({ err: error }, 'webhook wake-up listener could not connect');
      await session.end().catch(() => undefined);
      later();
      return;
    }
    if (closed) {
      await session.end().catch(() => undefined);
      return;
    }
    client = session;
    wake();
  };
  connecting = connect();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await connecting;
      const session = client;
      client = undefined;
      await session?.end().catch(() => undefined);
    },
  };
}
