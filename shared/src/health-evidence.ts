/**
 * The evidence a drive's health grade is derived from (issue 30 item 6): SMART read before and
 * after the erase, and how the overwrite behaved while it wrote. Plain data, shared by the agent
 * (which gathers it), the kiosk and the cloud (which show it). Every SMART fact is optional: a
 * drive reports only what its protocol has.
 */

/** The SMART facts that bear on resale, from one smartctl read. */
export interface SmartHealth {
  readonly protocol?: 'ATA' | 'NVMe' | 'SCSI';
  /** smartctl's overall verdict (smart_status.passed). */
  readonly passed?: boolean;
  readonly powerOnHours?: number;
  /** Endurance used, 0-100+ (NVMe percentage_used, SCSI endurance indicator, ATA wear attributes). */
  readonly percentageUsed?: number;
  /** ATA 5 Reallocated_Sector_Ct. */
  readonly reallocatedSectors?: number;
  /** ATA 197 Current_Pending_Sector. */
  readonly pendingSectors?: number;
  /** ATA 198 Offline_Uncorrectable. */
  readonly offlineUncorrectable?: number;
  /** ATA 199 UDMA_CRC_Error_Count: cable or link trouble, not the medium. */
  readonly crcErrors?: number;
  /** NVMe media_errors. */
  readonly mediaErrors?: number;
  /** NVMe critical_warning bit field (0 = none). */
  readonly criticalWarning?: number;
  /** SAS grown defect list length. */
  readonly grownDefects?: number;
  /** SAS uncorrected read + write errors from the error counter log. */
  readonly uncorrectedErrors?: number;
}

/** The overwrite's write rate over the drive, region by region (first pass). */
export interface ThroughputProfile {
  /** Bytes per region (the last may be shorter). */
  readonly regionBytes: number;
  /** MB/s (10^6 bytes per second) of each region, in LBA order; null where the region was not reached. */
  readonly mbps: readonly (number | null)[];
  /** Writes the kernel returned an error or a short count for. */
  readonly ioErrors: number;
  /**
   * Requests written again after an error. The overwrite does not retry (an error fails the
   * pass), so this is 0 unless a later version retries; the drive's own retries show as SMART
   * counters rising between the two reads.
   */
  readonly retries: number;
}

/**
 * The SMART short self-test run before the erase, where the account enables it: passed, failed
 * (with the first failing LBA when the log gives one), did not finish within the agent's timeout,
 * not supported (a USB bridge that does not pass it through, a drive without self-tests), or
 * ended otherwise (aborted, interrupted). Only passed and failed are graded.
 */
export interface SelfTestOutcome {
  readonly outcome: 'passed' | 'failed' | 'timed_out' | 'not_supported' | 'aborted';
  readonly failingLba?: number;
  /** The drive's or smartctl's own words for the outcome. */
  readonly detail?: string;
}

/** Everything the grade looks at. */
export interface HealthEvidence {
  readonly before?: SmartHealth;
  readonly after?: SmartHealth;
  /** Why SMART could not be read, when it could not (the grade then says so). */
  readonly smartUnavailable?: string;
  readonly profile?: ThroughputProfile;
  readonly selfTest?: SelfTestOutcome;
}
