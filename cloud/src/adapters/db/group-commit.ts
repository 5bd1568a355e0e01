import type { Params, SqlDatabase, SqlRunner } from '../sql/database.js';
import { PostgresDatabase } from '../sql/postgres.js';

/** Where a device write runs: committed when the promise resolves, so a 2xx after it is durable. */
export interface Commits {
  run<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Where a write that is one statement, atomic on its own, runs without a transaction of the
   * caller's: {@link StatementGroupCommit} on PostgreSQL. Absent on SQLite, where every write
   * already goes through the group commit.
   */
  readonly statements?: StatementGroupCommit;
}

interface Pending {
  work: (tx: SqlRunner) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for SQLite: device writes that arrive in the same event-loop turn share one
 * transaction, so one fsync (`synchronous=FULL`) makes a whole batch durable instead of one per
 * request. Each piece of work still runs in its own savepoint, so one failing write rolls back
 * alone, and every promise settles only after the COMMIT returned: a 2xx still means committed.
 * (PostgreSQL runs a transaction per write, see {@link transactionPerWrite}.)
 */
export class GroupCommit implements Commits {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: SqlDatabase) {}

  run<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await this.db.transaction(async (tx) => {
        for (const item of batch) {
          await tx.run('SAVEPOINT group_commit_item');
          try {
            outcomes.push({ ok: true, value: await item.work(tx) });
            await tx.run('RELEASE group_commit_item');
          } catch (error) {
            // ROLLBACK TO undoes this item only; RELEASE then drops the savepoint itself.
            await tx.run('ROLLBACK TO group_commit_item');
            await tx.run('RELEASE group_commit_item');
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The COMMIT itself failed: nothing in the batch is durable, so nothing may be acknowledged.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}

interface QueuedStatement {
  call: (tx: SqlRunner) => Promise<unknown>;
  /** Where the statement runs in its batch; see {@link StatementGroupCommit.keyed}. */
  key: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most statements one batch holds, so that its row locks are held for a bounded time. */
const MAX_BATCH = 256;

/**
 * Group commit for PostgreSQL's one-statement writes (the check-in). PostgreSQL flushes its WAL
 * once per transaction, and for a statement committed on its own that flush costs more than the
 * statement. So the statements that arrive while a batch is in flight run next, in one
 * transaction, and each caller's promise settles only after that COMMIT returned: a 2xx still
 * means committed. On a pipelined connection ({@link PostgresDatabase.pipelined}) a batch's
 * statements travel in one round trip. One batch is in flight at a time, so an instance's
 * batches never wait on each other's row locks; the batches of several instances take their
 * row locks in the order of the statements' keys, so they never deadlock either.
 *
 * A statement that fails aborts the batch before anything is committed; every statement of
 * the batch is then run again alone, so a failure fails only its own caller. A failed COMMIT
 * leaves the outcome unknown: every caller of the batch gets that error, as they would from a
 * transaction of their own.
 */
export class StatementGroupCommit implements SqlRunner {
  readonly dialect: SqlRunner['dialect'];
  private queue: QueuedStatement[] = [];
  private flushing = false;

  constructor(private readonly db: SqlDatabase) {
    this.dialect = db.dialect;
  }

  one<T>(sql: string, params?: Params): Promise<T | undefined> {
    return this.keyed('').one<T>(sql, params);
  }

  many<T>(sql: string, params?: Params): Promise<T[]> {
    return this.keyed('').many<T>(sql, params);
  }

  run(sql: string, params?: Params): Promise<number> {
    return this.keyed('').run(sql, params);
  }

  /**
   * A runner whose statements join the batches under `key`: a batch runs its statements in the
   * order of their keys (and of arrival, for equal keys). A statement that locks a row names it
   * by its key, so that two instances' batches lock shared rows in one order.
   */
  keyed(key: string): SqlRunner {
    return {
      dialect: this.dialect,
      one: <T>(sql: string, params?: Params) => this.enqueue(key, (tx) => tx.one<T>(sql, params)),
      many: <T>(sql: string, params?: Params) => this.enqueue(key, (tx) => tx.many<T>(sql, params)),
      run: (sql: string, params?: Params) => this.enqueue(key, (tx) => tx.run(sql, params)),
    };
  }

  private enqueue<T>(key: string, call: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ call, key, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      // Array.prototype.sort is stable: equal keys keep their arrival order.
      batch.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      await this.commitBatch(batch);
    }
    this.flushing = false;
  }

  private async commitBatch(batch: QueuedStatement[]): Promise<void> {
    let values: unknown[] = [];
    let statementFailed = false;
    try {
      await this.db.transaction(async (tx) => {
        // Issued together: on a pipelined connection they travel in one round trip, and
        // PostgreSQL runs them in this order, the keys'.
        const outcomes = await Promise.allSettled(batch.map((item) => item.call(tx)));
        const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        if (failed) {
          statementFailed = true;
          throw failed.reason;
        }
        values = outcomes.map((o) => (o as PromiseFulfilledResult<unknown>).value);
      });
    } catch (error) {
      if (statementFailed) for (const item of batch) await this.runAlone(item);
      else for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => item.resolve(values[i]));
  }

  private async runAlone(item: QueuedStatement): Promise<void> {
    try {
      item.resolve(await this.db.transaction((tx) => item.call(tx)));
    } catch (error) {
      item.reject(error);
    }
  }
}

/**
 * One transaction per write: PostgreSQL, where concurrent connections commit in parallel; its
 * one-statement writes share commits in a {@link StatementGroupCommit}.
 */
export const transactionPerWrite = (db: PostgresDatabase): Commits => ({
  run: (work) => db.transaction(work),
  statements: new StatementGroupCommit(db.pipelined()),
});

/** The store's commit discipline: batched on SQLite's single writer, per write on PostgreSQL. */
export const commitsFor = (db: SqlDatabase): Commits => (db instanceof PostgresDatabase ? transactionPerWrite(db) : new GroupCommit(db));
