import type { SqlRunner } from '../sql/database.js';

/** A job a worker holds: `attempts` after this claim doubles as the lease's fencing token. */
export interface ClaimedJob {
  id: number;
  kind: string;
  subject_id: number;
  attempts: number;
  lease_until: string;
}

const DUE = `kind = @kind AND ((status = 'pending' AND run_at <= @now) OR (status = 'running' AND lease_until < @now))`;

const CLAIM = (pick: string) => `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = @lease, updated_at = @now
      WHERE id = (${pick}) AND ${DUE}
     RETURNING id, kind, subject_id, attempts, lease_until`;

/**
 * The claim per store. SQLite has a single writer, so the plain inner SELECT cannot race. On
 * PostgreSQL any number of workers on any hosts claim at once: `FOR UPDATE SKIP LOCKED` makes
 * each pass over a job another worker's claim has locked and take the next due one, instead of
 * queueing behind that lock and then finding the job no longer due (and claiming nothing).
 */
const CLAIM_JOB = {
  sqlite: CLAIM(`SELECT id FROM jobs WHERE ${DUE} ORDER BY run_at, id LIMIT 1`),
  postgres: CLAIM(`SELECT id FROM jobs WHERE ${DUE} ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`),
} as const;

/**
 * Claims the oldest due job of `kind` in one UPDATE … RETURNING: a pending job whose `run_at`
 * has come, or a running one whose lease ran out (its worker died). The condition is repeated
 * on the outer UPDATE so that a claim never takes a job that stopped being due between the pick
 * and the write. Each claim increments `attempts`, the fencing token: the lock only keeps two
 * claims apart, while a worker whose lease ran out and was reclaimed still holds the old
 * `attempts`, and {@link stillHeld}, {@link finishJob}, {@link releaseJob} refuse it on that.
 */
export async function claimJob(db: SqlRunner, kind: string, now: string, leaseUntil: string): Promise<ClaimedJob | undefined> {
  return db.one<ClaimedJob>(CLAIM_JOB[db.dialect], { kind, now, lease: leaseUntil });
}

/**
 * Whether any job of `kind` is due, without taking the write lock: idle workers poll with this,
 * so a quiet system costs readers only, never contention with the writers devices wait on.
 */
export async function hasDueJob(db: SqlRunner, kind: string, now: string): Promise<boolean> {
  return (await db.one(`SELECT 1 AS found FROM jobs WHERE ${DUE} LIMIT 1`, { kind, now })) !== undefined;
}

/**
 * True while `job` is still this worker's: running, same attempt. A worker that outlived its
 * lease finds another claim's higher `attempts` here and must not write anything.
 */
export async function stillHeld(db: SqlRunner, job: ClaimedJob): Promise<boolean> {
  const held = await db.one(`SELECT 1 AS found FROM jobs WHERE id = @id AND status = 'running' AND attempts = @attempts`, {
    id: job.id,
    attempts: job.attempts,
  });
  return held !== undefined;
}

/** Marks the held job done; false (and no change) when the lease was lost to another claim. */
export async function finishJob(db: SqlRunner, job: ClaimedJob, now: string): Promise<boolean> {
  const changed = await db.run(
    `UPDATE jobs SET status = 'done', lease_until = NULL, last_error = NULL, updated_at = @now
      WHERE id = @id AND status = 'running' AND attempts = @attempts`,
    { now, id: job.id, attempts: job.attempts },
  );
  return changed === 1;
}

/**
 * Puts the held job back for a later attempt at `runAt` (the backoff is data, not a timer), or
 * fails it for good when `runAt` is null. False when the lease was lost.
 */
export async function releaseJob(
  db: SqlRunner,
  job: ClaimedJob,
  input: { runAt: string | null; error: string; now: string },
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE jobs SET status = @status, run_at = COALESCE(@runAt, run_at), lease_until = NULL,
                     last_error = @error, updated_at = @now
      WHERE id = @id AND status = 'running' AND attempts = @attempts`,
    {
      status: input.runAt === null ? 'failed' : 'pending',
      runAt: input.runAt,
      error: input.error.slice(0, 2000),
      now: input.now,
      id: job.id,
      attempts: job.attempts,
    },
  );
  return changed === 1;
}

/**
 * Gives the held job back untried, due now, for any worker to claim: what a stopping worker does
 * with a job it had to abort. The claim's attempt is returned too (a shutdown is not the job's
 * failure). The fence still holds: the row is no longer `running`, so nothing else of this
 * claim (or of an older one) can write, and the next claim raises `attempts` past any of them.
 * False when the lease was lost.
 */
export async function handBackJob(db: SqlRunner, job: ClaimedJob, now: string): Promise<boolean> {
  const changed = await db.run(
    `UPDATE jobs SET status = 'pending', attempts = attempts - 1, run_at = @now, lease_until = NULL,
                     last_error = 'handed back: worker stopping', updated_at = @now
      WHERE id = @id AND status = 'running' AND attempts = @attempts`,
    { now, id: job.id, attempts: job.attempts },
  );
  return changed === 1;
}
