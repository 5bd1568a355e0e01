import pg from 'pg';
import type { SqlDatabase } from './database.js';
import { PostgresDatabase } from './postgres.js';

/** Seconds between attempts to (re)connect the listening session. */
const RECONNECT_MS = 1000;

/**
 * Listens on a PostgreSQL NOTIFY channel: one session of its own, outside the pool, reconnected
 * when dropped. A NOTIFY sent inside a transaction reaches every listening session of the database
 * when it commits (never before, not at all on rollback), so each instance hears what any other
 * committed. `onConnected` runs after each (re)connect, for what committed while it was down.
 * A no-op on SQLite, where one process holds the database and wakes in-process.
 */
export function listenOnChannel(
  db: SqlDatabase,
  channel: string,
  handlers: { onNotification(payload: string): void; onConnected?(): void },
  log?: { error(details: object, message: string): void },
  failure = `listener of ${channel} could not connect`,
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
    session.on('notification', (message) => handlers.onNotification(message.payload ?? ''));
    session.on('error', () => undefined); // 'end' follows
    session.on('end', () => {
      if (client !== session) return;
      client = undefined;
      later();
    });
    try {
      await session.connect();
      await session.query(`LISTEN ${channel}`);
    } catch (error) {
      log?.error({ err: error }, failure);
      await session.end().catch(() => undefined);
      later();
      return;
    }
    if (closed) {
      await session.end().catch(() => undefined);
      return;
    }
    client = session;
    handlers.onConnected?.();
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
