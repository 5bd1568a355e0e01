import type { Clock } from '../../adapters/clock.js';
import type { WritableDb } from '../../adapters/db/open.js';

/** What the device-facing domain needs: the database adapter and the clock. */
export interface DeviceDeps {
  db: WritableDb;
  clock: Clock;
}

/** A refused device call: the HTTP layer turns it into `{error}` with this status. */
export interface Refusal {
  ok: false;
  status: 403 | 404 | 422;
  error: string;
}

export const refuse = (status: Refusal['status'], error: string): Refusal => ({ ok: false, status, error });
