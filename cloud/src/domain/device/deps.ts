import type { Clock } from '../../adapters/clock.js';
import type { WritableDb } from '../../adapters/db/open.js';
import type { CertificateIssuer } from '../../adapters/db/wipe-results.js';
import type { DeviceEvents } from './events.js';

/**
 * What the device-facing domain needs: the database adapter and the clock, plus the policies
 * the sandbox swaps (spec 1, "Sandbox differences"); absent, the cloud's defaults apply.
 */
export interface DeviceDeps {
  db: WritableDb;
  clock: Clock;
  /** Where events go (webhooks); absent, nothing listens. */
  events?: DeviceEvents | undefined;
  /** How a certifiable first receipt gets its certificate; absent, numbered now and queued. */
  issueCertificate?: CertificateIssuer | undefined;
}

/** A refused device call: the HTTP layer turns it into `{error}` with this status. */
export interface Refusal {
  ok: false;
  status: 403 | 404 | 422;
  error: string;
}

export const refuse = (status: Refusal['status'], error: string): Refusal => ({ ok: false, status, error });
