import { createHash } from 'node:crypto';
import pg from 'pg';
import { bindPositional, toPositional, type PositionalSql } from './named-params.js';
import type { Params, SqlDatabase, SqlRunner, TransactionOptions } from './database.js';
import { inTransactionOf, refuseInsideOwnTransaction } from './transaction-scope.js';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Counts and ids come back as numbers, as they do from SQLite: `bigint` (ids, COUNT) and
 * `numeric` (SUM) would otherwise arrive as strings. Every id and count here fits a double.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

interface Statement extends PositionalSql {
  /** Server-side prepared statement name: planned once per connection, reused after. */
  name: string;
}

const statements = new Map<string, Statement>();

function statementOf(sql: string): Statement {
  let statement = statements.get(sql);
  if (!statement) {
    const positional = toPositional(sql);
    statement = { ...positional, name: `s${createHash('sha256').update(sql).digest('hex').slice(0, 24)}` };
    statements.set(sql, statement);
  }
  return statement;
}

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

async function query<T>(on: Queryable, sql: string, params: Params | undefined): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const statement = statementOf(sql);
  return on.query<T & pg.QueryResultRow>({
    name: statement.name,
    text: statement.text,
    values: bindPositional(statement.names, params ?? {}),
  });
}

function runnerOn(on: Queryable, signal?: AbortSignal): SqlRunner {
  const run = <T>(sql: string, params: Params | undefined) => {
    signal?.throwIfAborted();
    return query<T>(on, sql, params);
  };
  return {
    dialect: 'postgres',
    one: async <T>(sql: string, params?: Params) => (await run<T>(sql, params)).rows[0] as T | undefined,
    many: async <T>(sql: string, params?: Params) => (await run<T>(sql, params)).rows as T[],
    run: async (sql: string, params?: Params) => (await run(sql, params)).rowCount ?? 0,
  };
}

/**
 * Runs `use` on a connection checked out of the pool for its whole duration. While checked out,
 * pg-pool no longer listens for the client's `error` event, which a dropped connection emits
 * even mid-query: unheard, it would crash the process, so it is heard here and that connection
 * is destroyed instead of returned. `use` destroys it too by calling `discard` (a failed
 * ROLLBACK leaves a connection in an unknown state).
 */
export async function withClient<T>(pool: pg.Pool, use: (client: pg.PoolClient, discard: (why: Error) => void) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const discard = (why: Error) => (broken ??= why);
  client.on('error', discard);
  try {
    return await use(client, discard);
  } finally {
    client.off('error', discard);
    client.release(broken);
  }
}

/** Ends a failed transaction; a ROLLBACK that fails too discards the connection. The work's own error is what the caller sees. */
export async function rollback(client: pg.PoolClient, discard: (why: Error) => void): Promise<void> {
  await client.query('ROLLBACK').catch((error: Error) => discard(error));
}

/**
 * The PostgreSQL store behind the port: a connection pool; a statement outside a transaction
 * takes any free connection, a transaction holds one from BEGIN to COMMIT. Isolation is the
 * default READ COMMITTED: the guarantees (quota, idempotency, numbering, claims) live in single
 * statements and row locks, not in the isolation level.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  private readonly direct: SqlRunner;
  private pipelinedDb: PostgresDatabase | undefined;

  constructor(readonly pool: pg.Pool) {
    this.direct = runnerOn(pool);
    // An idle connection the server dropped must not crash the process: the pool replaces it.
    pool.on('error', () => {});
  }

  static open(url: string, options: { max?: number } = {}): PostgresDatabase {
    return new PostgresDatabase(new pg.Pool({ connectionString: url, max: options.max ?? 10, types }));
  }

  async one<T>(sql: string, params?: Params): Promise<T | undefined> {
    refuseInsideOwnTransaction(this);
    return this.direct.one<T>(sql, params);
  }

  async many<T>(sql: string, params?: Params): Promise<T[]> {
    refuseInsideOwnTransaction(this);
    return this.direct.many<T>(sql, params);
  }

  async run(sql: string, params?: Params): Promise<number> {
    refuseInsideOwnTransaction(this);
    return this.direct.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    refuseInsideOwnTransaction(this);
    const { signal } = options;
    signal?.throwIfAborted();
    return withClient(this.pool, async (client, discard) => {
      // On abort the statement in progress (a lock wait, say) is cancelled on the server; the
      // cancel is awaited before the connection goes back to the pool, so it cannot land on
      // the next user's statement.
      let cancelling: Promise<void> | undefined;
      const cancel = () => {
        cancelling = this.cancelBackend((client as unknown as { processID: number }).processID);
      };
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        await client.query('BEGIN');
        try {
          const value = await inTransactionOf(this, () => work(runnerOn(client, signal)));
          signal?.throwIfAborted();
          await client.query('COMMIT');
          return value;
        } catch (error) {
          await cancelling;
          await rollback(client, discard);
          // Cut short: the caller sees why (as on SQLite), not the server's "canceling statement".
          throw signal?.aborted ? (signal.reason as Error) : error;
        }
      } finally {
        signal?.removeEventListener('abort', cancel);
        await cancelling;
      }
    });
  }

  /** Cancels the statement backend `pid` is running, over a connection of its own (the pool may be full). */
  private async cancelBackend(pid: number): Promise<void> {
    const session = new pg.Client(this.pool.options);
    session.on('error', () => undefined);
    try {
      await session.connect();
      await session.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // Nothing to cancel with: the statement ends on its own, or the process's deadline ends it.
    } finally {
      await session.end().catch(() => undefined);
    }
  }

  async *batches<T>(sql: string, params?: Params, size = 500): AsyncGenerator<T[]> {
    refuseInsideOwnTransaction(this);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const discard = (why: Error) => (broken ??= why);
    client.on('error', discard);
    let open = false;
    try {
      // One snapshot for the whole read; a cursor hands the rows over `size` at a time.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      const statement = toPositional(sql);
      await client.query({ text: `DECLARE erasure_rows NO SCROLL CURSOR FOR ${statement.text}`, values: bindPositional(statement.names, params ?? {}) });
      for (;;) {
        const { rows } = await client.query<T & pg.QueryResultRow>(`FETCH FORWARD ${Math.max(1, Math.floor(size))} FROM erasure_rows`);
        if (rows.length === 0) break;
        yield rows;
      }
      open = false;
      await client.query('COMMIT');
    } finally {
      // Stopped early or failed: nothing was written, so ending the transaction is all there is to do.
      if (open) await rollback(client, discard);
      client.off('error', discard);
      client.release(broken);
    }
  }

  async script(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /**
   * The same database over one connection in pipeline mode: every query is written without
   * waiting for the answer to the one before, so statements issued together cost one round trip.
   * Created on first use, closed with this database.
   */
  pipelined(): PostgresDatabase {
    // keepAlive: every pipelined statement waits on this one connection, so a peer that vanished
    // without a FIN must be noticed rather than waited on.
    this.pipelinedDb ??= new PostgresDatabase(new pg.Pool({ ...this.pool.options, max: 1, pipeline: true, keepAlive: true }));
    return this.pipelinedDb;
  }

  async close(): Promise<void> {
    try {
      await this.pipelinedDb?.close();
    } finally {
      await this.pool.end();
    }
  }
}
