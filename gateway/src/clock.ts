/** The gateway's only notion of time: token expiry and request-signing timestamps read it. */
export type Clock = () => Date;

/** Wall-clock time; tests inject a fixed or shifted clock instead. */
export const systemClock: Clock = () => new Date();
