import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  db: object;
  /** False once the transaction ended: timers and promises started inside it outlive it. */
  open: boolean;
}

/**
 * Which database's transaction the current async call chain runs in. A statement sent to the
 * database itself from inside its own transaction's work is a bug either way: on SQLite it would
 * wait for the transaction to end (forever), on PostgreSQL it would run outside the transaction
 * (and with a one-connection pool wait forever too). So it fails at once, naming the fix.
 * Work scheduled from inside a transaction (a timer, a callback) carries this context along but
 * runs after the transaction ended, so the scope is closed when the work settles.
 */
const scope = new AsyncLocalStorage<Scope>();

export async function inTransactionOf<T>(db: object, work: () => Promise<T>): Promise<T> {
  const current: Scope = { db, open: true };
  try {
    return await scope.run(current, work);
  } finally {
    current.open = false;
  }
}

export function refuseInsideOwnTransaction(db: object): void {
  const current = scope.getStore();
  if (current?.open && current.db === db) {
    throw new Error('a statement on the database inside its own transaction: use the transaction handle the work was given');
  }
}
