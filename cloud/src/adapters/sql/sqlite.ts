import Database from 'better-sqlite3';
import { openDatabase, prepared } from '../db/open.js';
import type { Params, SqlDatabase, SqlRunner, TransactionOptions } from './database.js';
import { inTransactionOf, refuseInsideOwnTransaction } from './transaction-scope.js';

/** better-sqlite3 binds numbers, strings, bigints, buffers and null: booleans become 0/1. */
function bindable(params: Params | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    out[key] = value === undefined ? null : typeof value === 'boolean' ? Number(value) : value;
  }
  return out;
}

const args = (params: Params | undefined): unknown[] => {
  const bound = bindable(params);
  return bound === undefined ? [] : [bound];
};

/** Statements straight on the connection: better-sqlite3 is synchronous, so each is atomic. */
function directRunner(db: Database.Database): SqlRunner {
  return {
    dialect: 'sqlite',
    one: async <T>(sql: string, params?: Params) => prepared(db, sql).get(...args(params)) as T | undefined,
    many: async <T>(sql: string, params?: Params) => prepared(db, sql).all(...args(params)) as T[],
    run: async (sql: string, params?: Params) => prepared(db, sql).run(...args(params)).changes,
  };
}

/** How long a statement keeps trying for a write lock another connection holds (was busy_timeout). */
export const LOCK_WAIT_MS = 5_000;

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/**
 * Runs `attempt` until it gets past SQLITE_BUSY, waiting between tries without blocking the
 * thread. SQLite's own busy_timeout would sleep inside the call: with transactions that await,
 * the connection holding the lock (in this process, say the rate-window connection or a second
 * worker's) could then never finish, and both would stall until the timeout. A busy statement
 * took no effect, so trying it again is safe. An aborted `signal` ends the wait at once.
 */
async function retryWhileBusy<T>(attempt: () => T, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    signal?.throwIfAborted();
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * The SQLite store behind the port. One connection and a single writer: while a transaction's
 * work awaits, every other statement on this connection waits for it (a statement run in between
 * would otherwise land inside someone else's transaction), and transactions run one at a time.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  /** Statements outside a transaction: they wait (off the thread) for another connection's write lock. */
  private readonly direct: SqlRunner;
  /** Statements inside this connection's transaction, which already holds the write lock. */
  private readonly inside: SqlRunner;
  /** Settles when the transaction in progress (if any) has ended. */
  private idle: Promise<void> = Promise.resolve();
  private busy = false;

  constructor(readonly handle: Database.Database) {
    // Lock waits happen in retryWhileBusy, off the thread; see there.
    handle.pragma('busy_timeout = 0');
    this.direct = {
      dialect: 'sqlite',
      one: <T>(sql: string, params?: Params) => retryWhileBusy(() => prepared(handle, sql).get(...args(params)) as T | undefined),
      many: <T>(sql: string, params?: Params) => retryWhileBusy(() => prepared(handle, sql).all(...args(params)) as T[]),
      run: (sql: string, params?: Params) => retryWhileBusy(() => prepared(handle, sql).run(...args(params)).changes),
    };
    this.inside = directRunner(handle);
  }

  static open(path: string): SqliteDatabase {
    return new SqliteDatabase(openDatabase(path));
  }

  private async outside<T>(statement: () => Promise<T>): Promise<T> {
    refuseInsideOwnTransaction(this);
    while (this.busy) await this.idle;
    return statement();
  }

  one<T>(sql: string, params?: Params): Promise<T | undefined> {
    return this.outside(() => this.direct.one<T>(sql, params));
  }

  many<T>(sql: string, params?: Params): Promise<T[]> {
    return this.outside(() => this.direct.many<T>(sql, params));
  }

  run(sql: string, params?: Params): Promise<number> {
    return this.outside(() => this.direct.run(sql, params));
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    refuseInsideOwnTransaction(this);
    while (this.busy) await this.idle;
    options.signal?.throwIfAborted();
    this.busy = true;
    let release!: () => void;
    this.idle = new Promise((resolve) => (release = resolve));
    try {
      // IMMEDIATE takes the write lock up front, so another process's writer makes this wait
      // (busy_timeout) instead of failing at the first write with SQLITE_BUSY.
      await retryWhileBusy(() => this.handle.exec('BEGIN IMMEDIATE'), options.signal);
      try {
        const value = await inTransactionOf(this, () => work(this.inside));
        this.handle.exec('COMMIT');
        return value;
      } catch (error) {
        if (this.handle.inTransaction) this.handle.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.busy = false;
      release();
    }
  }

  async *batches<T>(sql: string, params?: Params, size = 500): AsyncGenerator<T[]> {
    refuseInsideOwnTransaction(this);
    if (this.handle.memory) {
      // An in-memory database is the process's memory already, and no other connection can see it.
      const rows = await this.many<T>(sql, params);
      for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
      return;
    }
    // A connection of its own: better-sqlite3 refuses every other statement on a connection while
    // one of its reads is open, and this read stays open while each batch is written out. In WAL
    // mode it reads one snapshot and holds up no writer.
    const reader = new Database(this.handle.name, { readonly: true, fileMustExist: true });
    try {
      let batch: T[] = [];
      for (const row of reader.prepare(sql).iterate(...args(params)) as Iterable<T>) {
        batch.push(row);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      reader.close();
    }
  }

  async script(sql: string): Promise<void> {
    await this.outside(async () => this.handle.exec(sql));
  }

  async close(): Promise<void> {
    await this.outside(async () => this.handle.close());
  }
}
