import type { SqlDatabase } from '../sql/database.js';

/** Expired signatures are swept once per this many accepted calls, so the table holds the window only. */
const PURGE_EVERY = 200;

/**
 * One statement decides, on any number of instances at once: a new signature is inserted, one
 * whose row has expired is taken over, and a live one conflicts and updates nothing, so no row
 * comes back. On PostgreSQL a second inserter of the same key waits for the first to commit and
 * then sees its row (ON CONFLICT re-reads it), so two instances cannot both accept one signature.
 */
const FIRST_USE_SQL = `INSERT INTO internal_signatures_seen (signature, expires_at) VALUES (@signature, @expires)
     ON CONFLICT (signature) DO UPDATE SET expires_at = @expires
       WHERE internal_signatures_seen.expires_at <= @now
     RETURNING 1 AS fresh`;

/** Where the signatures of accepted internal calls are remembered until they go stale. */
export interface SeenSignatures {
  /** True the first time `signature` is offered while it lives; false for a replay. */
  firstUse(signature: string, expiresAtMs: number, nowMs: number): Promise<boolean>;
  /** Deletes the signatures that expired; how many. */
  purge(nowMs: number): Promise<number>;
}

/** The seen signatures in the cloud's store, shared by every process and instance that opens it. */
export function databaseSeenSignatures(db: SqlDatabase): SeenSignatures {
  let accepted = 0;
  const purge = (nowMs: number) => db.run('DELETE FROM internal_signatures_seen WHERE expires_at <= @now', { now: nowMs });
  return {
    async firstUse(signature, expiresAtMs, nowMs) {
      accepted += 1;
      if (accepted % PURGE_EVERY === 0) await purge(nowMs);
      return (await db.one(FIRST_USE_SQL, { signature, expires: expiresAtMs, now: nowMs })) !== undefined;
    },
    purge,
  };
}
