import type { Clock } from '../domain/clock.js';

export { isoNow, type Clock } from '../domain/clock.js';

/** The real time. */
export const systemClock: Clock = { now: () => new Date() };
