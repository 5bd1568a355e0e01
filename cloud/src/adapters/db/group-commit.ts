import type { SqlDatabase, SqlRunner } from '../sql/database.js';

/** Where a device write runs: committed when the promise resolves, so a 2xx after it is durable. */
export interface Commits {
  run<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
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
 * (PostgreSQL groups WAL flushes of concurrent connections itself: it uses {@link transactionPerWrite}.)
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

/** One transaction per write: PostgreSQL, where concurrent connections commit in parallel. */
export const transactionPerWrite = (db: SqlDatabase): Commits => ({ run: (work) => db.transaction(work) });

/** The store's commit discipline: batched on SQLite's single writer, per write on PostgreSQL. */
export const commitsFor = (db: SqlDatabase): Commits => (db.dialect === 'sqlite' ? new GroupCommit(db) : transactionPerWrite(db));
