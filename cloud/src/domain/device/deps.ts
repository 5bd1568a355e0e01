import type { SweepPacer } from '../floor/sweep.js';
import type { Clock } from '../clock.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type * as AssetsDb from '../../adapters/db/assets.js';
import type * as CertificateNumbersDb from '../../adapters/db/certificate-numbers.js';
import type * as ChassisMapsDb from '../../adapters/db/chassis-maps.js';
import type * as AtaMasterPasswordsDb from '../../adapters/db/ata-master-passwords.js';
import type * as ErasurePoliciesDb from '../../adapters/db/erasure-policies.js';
import type * as HealthGradingsDb from '../../adapters/db/health-gradings.js';
import type * as JobDetailsDb from '../../adapters/db/job-details.js';
import type * as TokensDb from '../../adapters/db/tokens.js';
import type * as WipeResultsDb from '../../adapters/db/wipe-results.js';
import type { CertificateIssuer } from '../../adapters/db/wipe-results.js';
import type { DeviceEvents } from './events.js';
import type { ValidationStore } from '../validation/sampling.js';

/**
 * The repository functions the device domain calls, passed in (adapters/db/device-store.ts is
 * the SQLite one), so the domain depends on their shapes only.
 */
export type DeviceStore = Pick<typeof TokensDb, 'findTokenByJti' | 'spendCheckin' | 'spendUnheardCheckin' | 'touchLastSeen'> &
  Pick<typeof AssetsDb, 'upsertAsset' | 'findAssetByRecord' | 'setAssetNotes' | 'setAssetTests'> &
  Pick<typeof ChassisMapsDb, 'findChassisMap' | 'saveChassisMap'> &
  Pick<typeof WipeResultsDb, 'storeWipeResult'> &
  Pick<typeof CertificateNumbersDb, 'findCertificateNumbers'> &
  Pick<typeof ErasurePoliciesDb, 'findTokenPolicyJson' | 'findAccountPolicyJson'> &
  Pick<typeof AtaMasterPasswordsDb, 'findMasterPasswords'> &
  Pick<typeof HealthGradingsDb, 'findHealthGrading'> &
  Pick<typeof JobDetailsDb, 'findAccountJobChoices' | 'setAssetJobDetails' | 'setDriveJobDetails'>;

/**
 * What the device-facing domain needs: the database adapter and the clock, plus the policies
 * the sandbox swaps (spec 1, "Sandbox differences"); absent, the cloud's defaults apply.
 */
export interface DeviceDeps {
  /**
   * Where the call's statements run: the transaction of its device write (http/routes/internal.ts
   * runs every call through `Commits`), so a call's writes and the events they emit commit or
   * roll back together. The domain opens no transaction of its own.
   */
  db: SqlRunner;
  clock: Clock;
  store: DeviceStore;
  /** Where events go (webhooks); absent, nothing listens. */
  events?: DeviceEvents | undefined;
  /** How a certifiable first receipt gets its certificate; absent, numbered now and queued. */
  issueCertificate?: CertificateIssuer | undefined;
  /** MAX_DRIVES_PER_MACHINE: results one engine check-in can certify; absent, 256. */
  maxDrivesPerMachine?: number | undefined;
  /**
   * Validation sampling per lot (issue 29): called in the transaction of each certified first
   * receipt. Absent (the sandbox): no sampling, and validation reports are refused.
   */
  /**
   * The floor view (issue 32): whether this deployment takes machines' live reports (FLOOR_VIEW),
   * and whom to tell once a stored report committed. Absent (the sandbox): reports are refused.
   */
  floor?: { enabled: boolean; committed(accountId: number): void; sweep: SweepPacer } | undefined;
  validation?:
    | { store: ValidationStore; onCertifiedWipe(db: SqlRunner, wipe: { accountId: number; tokenId: number }, now: string): Promise<void> }
    | undefined;
}

/** A refused device call: the HTTP layer turns it into `{error}` with this status. */
export interface Refusal {
  ok: false;
  status: 403 | 404 | 409 | 422;
  error: string;
}

export const refuse = (status: Refusal['status'], error: string): Refusal => ({ ok: false, status, error });
