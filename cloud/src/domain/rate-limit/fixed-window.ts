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

/**
 * A fixed-window counter per key, in memory. Simple and cheap: fine for one cloud process, and
 * the windows are short enough that a restart forgetting them does no harm. The map is swept
 * of finished windows when it grows, so a flood of distinct keys cannot grow it without bound.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one hit for `key` at `nowMs` and tells whether it went over the limit. */
  hit(key: string, nowMs: number): WindowState {
    const window = this.current(key, nowMs) ?? this.open(key, nowMs);
    window.count += 1;
    return this.state(window);
  }

  /** The standing without counting anything (e.g. before checking a password). */
  peek(key: string, nowMs: number): WindowState {
    return this.state(this.current(key, nowMs) ?? { count: 0, resetAt: nowMs + this.windowMs });
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string, nowMs: number) {
    const window = this.windows.get(key);
    return window && window.resetAt > nowMs ? window : undefined;
  }

  private open(key: string, nowMs: number) {
    if (this.windows.size >= this.maxKeys) this.sweep(nowMs);
    const window = { count: 0, resetAt: nowMs + this.windowMs };
    this.windows.set(key, window);
    return window;
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= nowMs) this.windows.delete(key);
    // Still full of live windows: drop the oldest entries rather than grow past the cap.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }

  private state(window: { count: number; resetAt: number }): WindowState {
    return {
      count: window.count,
      limit: this.limit,
      remaining: Math.max(this.limit - window.count, 0),
      resetAt: window.resetAt,
      limited: window.count > this.limit,
    };
  }
}
