/** The standing of one key in its current window. */
export interface WindowState {
  /** Hits counted in the current window, this one included. */
  count: number;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when the window ends and the count starts over. */
  resetAt: number;
  limited: boolean;
}

/** One key's stored window. */
export interface WindowRow {
  count: number;
  resetAt: number;
}

/**
 * Where windows live (the database, so limits hold across processes and restarts). `hit` counts
 * one atomically, opening a fresh window when the stored one has ended.
 */
export interface WindowStore {
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowRow>;
  /** The live window of `key`, if any. */
  peek(key: string, nowMs: number): Promise<WindowRow | undefined>;
  reset(key: string): Promise<void>;
  /** Takes back one hit of the live window of `key` (a counted attempt that turned out fine). */
  release(key: string, nowMs: number): Promise<void>;
  /** Deletes finished windows; how many. */
  prune(nowMs: number): Promise<number>;
}

/**
 * A fixed-window limit of `limit` hits per `windowMs` for the keys of one namespace (e.g.
 * `login`), over a shared {@link WindowStore}.
 */
export class FixedWindowCounter {
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly store: WindowStore,
    private readonly namespace: string,
  ) {}

  /** Counts one hit for `key` at `nowMs` and tells whether it went over the limit. */
  async hit(key: string, nowMs: number): Promise<WindowState> {
    return this.state(await this.store.hit(this.key(key), this.windowMs, nowMs));
  }

  /** The standing without counting anything (e.g. before checking a password). */
  async peek(key: string, nowMs: number): Promise<WindowState> {
    return this.state((await this.store.peek(this.key(key), nowMs)) ?? { count: 0, resetAt: nowMs + this.windowMs });
  }

  async reset(key: string): Promise<void> {
    await this.store.reset(this.key(key));
  }

  /** Takes back one hit counted for `key` in its current window. */
  async release(key: string, nowMs: number): Promise<void> {
    await this.store.release(this.key(key), nowMs);
  }

  private key(key: string): string {
    return `${this.namespace}:${key}`;
  }

  private state(window: WindowRow): WindowState {
    return {
      count: window.count,
      limit: this.limit,
      remaining: Math.max(this.limit - window.count, 0),
      resetAt: window.resetAt,
      limited: window.count > this.limit,
    };
  }
}
