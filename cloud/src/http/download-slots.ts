/** How many image personalizations (xorriso processes) may run at once, in this process. */
export interface DownloadLimits {
  /** Per account (IMAGE_DOWNLOADS_PER_ACCOUNT, default 2). */
  perAccount: number;
  /** In total (IMAGE_DOWNLOADS_TOTAL, default 6). */
  total: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { perAccount: 2, total: 6 };

export type SlotTake = { ok: true; release: () => void } | { ok: false; scope: 'account' | 'server' };

/**
 * Counts running personalizations per account and in total. Each holds a xorriso process and
 * its pipes until the client has the whole image or leaves, so the caps bound what clients that
 * open downloads and never read can pin (issue 20, item 6). In memory: the processes it counts
 * are this process's children.
 */
export function downloadSlots(limits: DownloadLimits): { take(accountId: number): SlotTake; inUse(): number } {
  const perAccount = new Map<number, number>();
  let total = 0;
  return {
    take(accountId) {
      const mine = perAccount.get(accountId) ?? 0;
      if (mine >= limits.perAccount) return { ok: false, scope: 'account' };
      if (total >= limits.total) return { ok: false, scope: 'server' };
      perAccount.set(accountId, mine + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        release: () => {
          // Idempotent: the end of a download can be seen from more than one event.
          if (released) return;
          released = true;
          total -= 1;
          const left = (perAccount.get(accountId) ?? 1) - 1;
          if (left === 0) perAccount.delete(accountId);
          else perAccount.set(accountId, left);
        },
      };
    },
    inUse: () => total,
  };
}
