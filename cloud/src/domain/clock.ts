/** The only way domain and adapters learn the time, so tests can move it (a port: adapters/clock.ts has the system's). */
export interface Clock {
  now(): Date;
}

/** ISO 8601 text of the clock's now, the form every timestamp column holds. */
export const isoNow = (clock: Clock): string => clock.now().toISOString();
