/**
 * The cloud's store, as the repositories see it: one asynchronous interface over SQLite (the
 * embedded default, better-sqlite3) and PostgreSQL (`DATABASE_URL=postgres://…`, node-postgres).
 *
 * SQL is written once, in the portable subset both engines share (`RETURNING`, `ON CONFLICT`,
 * `EXISTS`, CTEs), with named parameters `@name`: SQLite binds them natively, the PostgreSQL
 * adapter rewrites them to `$n` once per statement text. Timestamps are ISO-8601 text in both
 * stores (they compare as strings), flags are integers 0/1, ids are integers that fit a double.
 */
export type Dialect = 'sqlite' | 'postgres';

/** Named parameters: `@name` in the SQL, `name` here. */
export type Params = Readonly<Record<string, unknown>>;

/** What statements run on: the database itself, or one transaction of it. */
export interface SqlRunner {
  readonly dialect: Dialect;
  /** The first row, or undefined. */
  one<T>(sql: string, params?: Params): Promise<T | undefined>;
  /** Every row. */
  many<T>(sql: string, params?: Params): Promise<T[]>;
  /** Runs a write and answers how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
}

/** How a transaction may be cut short. */
export interface TransactionOptions {
  /**
   * Aborting rolls the transaction back instead of letting it wait on a lock. SQLite: the wait
   * for the write lock ends (once begun, a SQLite transaction never waits). PostgreSQL: the
   * running statement is cancelled on the server and no later statement of the transaction
   * runs. Workers pass their shutdown signal, so a transaction stuck behind another session's
   * lock cannot hold a stopping process.
   */
  signal?: AbortSignal | undefined;
}

export interface SqlDatabase extends SqlRunner {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * The promise settles only after COMMIT returned, so an answer sent after it is durable.
   */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Every row of a read, `size` at a time, holding only one batch in memory (an export of the
   * whole history). The read sees one snapshot and runs beside the store's other work: SQLite
   * reads on a connection of its own, PostgreSQL through a cursor on a connection of its own.
   * Stopping early (a `break`, a closed download) ends the read.
   */
  batches<T>(sql: string, params?: Params, size?: number): AsyncIterable<T[]>;
  /** Runs a script of several statements (migrations), outside any transaction of the caller's. */
  script(sql: string): Promise<void>;
  close(): Promise<void>;
}
