import type Database from 'better-sqlite3';
import { openDatabase, prepared } from '../db/open.js';
import type { Params, SqlDatabase, SqlRunner } from './database.js';
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

/**
 * The SQLite store behind the port. One connection and a single writer: while a transaction's
 * work awaits, every other statement on this connection waits for it (a statement run in between
 * would otherwise land inside someone else's transaction), and transactions run one at a time.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  private readonly direct: SqlRunner;
  /** Settles when the transaction in progress (if any) has ended. */
  private idle: Promise<void> = Promise.resolve();
  private busy = false;

  constructor(readonly handle: Database.Database) {
    this.direct = directRunner(handle);
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

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    refuseInsideOwnTransaction(this);
    while (this.busy) await this.idle;
    this.busy = true;
    let release!: () => void;
    this.idle = new Promise((resolve) => (release = resolve));
    try {
      // IMMEDIATE takes the write lock up front, so another process's writer makes this wait
      // (busy_timeout) instead of failing at the first write with SQLITE_BUSY.
      this.handle.exec('BEGIN IMMEDIATE');
      try {
        const value = await inTransactionOf(this, () => work(this.direct));
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

  async script(sql: string): Promise<void> {
    await this.outside(async () => this.handle.exec(sql));
  }

  async close(): Promise<void> {
    await this.outside(async () => this.handle.close());
  }
}
