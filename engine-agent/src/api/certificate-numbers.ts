import type { CertificateNumberEntry } from '@erasure/shared';

/** A certificate's number and status as the cloud last reported them. */
export interface CertificateView {
  readonly certificate_number: string | null;
  readonly certificate_status: string | null;
}

/** How the follower reads numbers: one gateway lookup; undefined when it failed (retried on the next attempt). */
export type CertificateLookup = (jobIds: readonly string[]) => Promise<readonly CertificateNumberEntry[] | undefined>;

/** Statuses after which a certificate will not change any more. */
const SETTLED = new Set(['complete', 'failed']);

/**
 * Follows the certificates of delivered wipe results. The wipe-result answer carries the status
 * but never the `CW-…` number (spec 7 keeps that body exact), so after delivery the agent asks
 * the gateway's lookup route, a bounded number of times (`delaysMs`, one lookup after each
 * wait), and stops early once every certificate is complete or failed. A result delivered
 * without a status is not certifiable and is never looked up.
 */
export class CertificateFollower {
  private readonly known = new Map<string, CertificateView>();

  constructor(
    private readonly lookup: CertificateLookup,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly delaysMs: readonly number[],
    private readonly changed: () => void,
  ) {}

  /** What is known about a job's certificate, if anything was looked up yet. */
  view(jobId: string): CertificateView | undefined {
    return this.known.get(jobId);
  }

  /** Looks the numbers of `jobIds` up until all are settled, the attempts run out, or `signal` aborts. */
  async follow(jobIds: readonly string[], signal: AbortSignal): Promise<void> {
    const open = () => jobIds.filter((id) => !SETTLED.has(this.known.get(id)?.certificate_status ?? ''));
    for (const delay of this.delaysMs) {
      if (open().length === 0 || signal.aborted) return;
      if (delay > 0) await this.sleep(delay);
      if (signal.aborted) return;
      const found = await this.lookup(open());
      if (!found) continue;
      let changed = false;
      for (const c of found) {
        const before = this.known.get(c.job_id);
        // A number, once seen, is kept: the cloud never renumbers a certificate.
        const next = { certificate_number: c.certificate_number ?? before?.certificate_number ?? null, certificate_status: c.certificate_status };
        if (before?.certificate_number !== next.certificate_number || before?.certificate_status !== next.certificate_status) changed = true;
        this.known.set(c.job_id, next);
      }
      if (changed) this.changed();
    }
  }
}
