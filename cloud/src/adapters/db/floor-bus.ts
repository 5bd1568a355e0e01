import type { SqlDatabase } from '../sql/database.js';
import { listenOnChannel } from '../sql/listen.js';
import { FLOOR_CHANNEL } from './floor-machines.js';

/** Who hears that an account's floor changed: the boards (SSE streams) connected to this instance. */
export interface FloorBus {
  /** After the transaction that stored a report committed (SQLite: tells this process's boards; PostgreSQL: NOTIFY already did). */
  committed(accountId: number): void;
  /** Calls `changed` on every change of the account's floor; answers the way to stop. */
  subscribe(accountId: number, changed: () => void): () => void;
  close(): Promise<void>;
}

/**
 * The floor view's fan-out (issue 32). On PostgreSQL, every instance LISTENs and hears the NOTIFY
 * each stored report sends inside its transaction, whichever instance stored it, so a board
 * connected to one instance follows reports that reached another. On SQLite, one instance holds
 * the store, and the store call tells its own boards once committed.
 */
export function createFloorBus(db: SqlDatabase, log?: { error(details: object, message: string): void }): FloorBus {
  const listeners = new Map<number, Set<() => void>>();
  const tell = (accountId: number) => {
    for (const changed of listeners.get(accountId) ?? []) changed();
  };
  const tellAll = () => {
    for (const accountId of listeners.keys()) tell(accountId);
  };
  const listening = listenOnChannel(db, FLOOR_CHANNEL, { onNotification: (payload) => tell(Number(payload)), onConnected: tellAll }, log, 'floor view listener could not connect');
  return {
    committed(accountId) {
      if (db.dialect === 'sqlite') tell(accountId);
    },
    subscribe(accountId, changed) {
      const set = listeners.get(accountId) ?? new Set();
      set.add(changed);
      listeners.set(accountId, set);
      return () => {
        set.delete(changed);
        if (set.size === 0) listeners.delete(accountId);
      };
    },
    close: () => listening.close(),
  };
}
