import type { BayStateName } from '@erasure/shared';

/**
 * A bay's LEDs follow its state (issue 32, a station that runs lights-out): the locate LED
 * blinks while the bay checks in, erases or verifies, the fault LED is on for a failed erase,
 * and both are off otherwise (done, cancelled, pulled, empty, or waiting for the operator). A
 * bay checking in while the erasure service does not answer still blinks: its drive is not done
 * and must stay seated, and "off" would read as done to someone across the room.
 */
export type BayLed = 'working' | 'failed' | 'off';

export function bayLedFor(state: BayStateName): BayLed {
  if (state === 'checking_in' || state === 'erasing' || state === 'verifying') return 'working';
  if (state === 'failed') return 'failed';
  return 'off';
}

/** Sets one bay's LEDs; false when its enclosure has none that this machine can drive. */
export type ShowBayLed<Target> = (target: Target, led: BayLed) => Promise<boolean>;

/** A bay as the follower sees it: its lane, its state, and what its LEDs are reached by. */
export interface LedBay<Target> {
  readonly lane: string;
  readonly state: BayStateName;
  readonly target: Target | undefined;
}

/**
 * Sets each bay's LEDs when what they should show changes, one call at a time per bay, in order.
 * A bay whose LEDs cannot be lit is not asked again (the bay view already says so through
 * Locate); a failure of the LEDs never touches the erase. `unavailable` lists those bays.
 */
export function bayLedFollower<Target>(show: ShowBayLed<Target>, log?: (line: string) => void) {
  const shown = new Map<string, BayLed>();
  const unavailable = new Set<string>();
  const queues = new Map<string, Promise<void>>();
  return {
    follow(bays: readonly LedBay<Target>[]): void {
      for (const bay of bays) {
        const led = bayLedFor(bay.state);
        if (!bay.target || unavailable.has(bay.lane) || (shown.get(bay.lane) ?? 'off') === led) continue;
        shown.set(bay.lane, led);
        const target = bay.target;
        const next = (queues.get(bay.lane) ?? Promise.resolve()).then(async () => {
          if (unavailable.has(bay.lane)) return;
          // Turning off may fail only because the drive just left with its LED: no verdict on the bay.
          if ((await show(target, led).catch(() => false)) || led === 'off') return;
          unavailable.add(bay.lane);
          log?.(`${bay.lane}: the bay's LEDs cannot be driven here (no SES slot, and ledctl refused the drive)`);
        });
        queues.set(bay.lane, next);
      }
    },
    unavailable: (): ReadonlySet<string> => unavailable,
    /** What a bay's LEDs were last set to show ('off' for one never set or that cannot be lit). */
    showing: (lane: string): BayLed => (unavailable.has(lane) ? 'off' : (shown.get(lane) ?? 'off')),
    /** Resolves once every LED change asked for so far has been made or refused. */
    settled: async (): Promise<void> => {
      await Promise.all(queues.values());
    },
  };
}
