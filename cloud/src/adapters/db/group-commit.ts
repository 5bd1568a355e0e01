import type Database from 'better-sqlite3';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: device writes that arrive in the same event-loop turn share one transaction,
 * so one fsync (`synchronous=FULL`) makes a whole batch durable instead of one per request.
 * Each piece of work still runs in its own savepoint, so one failing write rolls back alone,
 * and every promise settles only after the COMMIT returned: a 2xx still means committed.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Database.Database) {}

  /** Runs `work` (synchronous SQL) in the next batch and resolves with its result once committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const item of batch) {
            try {
              // A nested better-sqlite3 transaction is a SAVEPOINT: a throw undoes this item only.
              outcomes.push({ ok: true, value: this.db.transaction(item.work)() });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
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
