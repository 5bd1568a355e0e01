/** What became of this boot's freeze lock removal (a suspend to RAM with an RTC wake-up). */
export type UnfreezeOutcome =
  /** Switched off (`erasure.unfreeze=off` or the kiosk's setting): `source` says which. */
  | { readonly kind: 'off'; readonly source: string }
  /** The machine slept and woke by its RTC alarm at `at`; drives were probed again after. */
  | { readonly kind: 'resumed'; readonly at: string }
  /** rtcwake failed or could not run: `reason` says how. */
  | { readonly kind: 'failed'; readonly at: string; readonly reason: string }
  /** Not tried: an erase had started this boot, and the machine never sleeps while a drive is written. */
  | { readonly kind: 'skipped'; readonly reason: string };

/** Why a frozen drive is still frozen, in the plan's words, from this boot's freeze lock removal. */
export function stillFrozenBecause(outcome: UnfreezeOutcome | undefined): string {
  switch (outcome?.kind) {
    case undefined:
      return 'freeze lock removal (a suspend and resume) has not run this boot';
    case 'off':
      return `freeze lock removal is off (${outcome.source})`;
    case 'resumed':
      return `it was frozen again after this boot's suspend and resume at ${outcome.at} (the BIOS froze it on resume)`;
    case 'failed':
      return `the suspend and resume to unfreeze it failed: ${outcome.reason}`;
    case 'skipped':
      return `the suspend and resume to unfreeze it did not run: ${outcome.reason}`;
  }
}
