import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which database's transaction the current async call chain runs in. A statement sent to the
 * database itself from inside its own transaction's work is a bug either way: on SQLite it would
 * wait for the transaction to end (forever), on PostgreSQL it would run outside the transaction
 * (and with a one-connection pool wait forever too). So it fails at once, naming the fix.
 */
const scope = new AsyncLocalStorage<object>();

export function inTransactionOf<T>(db: object, work: () => Promise<T>): Promise<T> {
  return scope.run(db, work);
}

export function refuseInsideOwnTransaction(db: object): void {
  if (scope.getStore() === db) {
    throw new Error('a statement on the database inside its own transaction: use the transaction handle the work was given');
  }
}
