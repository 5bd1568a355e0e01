/** What waiting needs from the world; tests pass fakes. */
export interface WaitDeps {
  readonly fetch: (url: string) => Promise<{ status: number }>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly log: (line: string) => void;
}

/**
 * Waits until the agent answers HTTP at all (any status: it is up, and the page shows the rest),
 * for at most `attempts` tries. On a boot image the shell and the agent start together; opening a
 * Chromium window before the agent listens would show the browser's own error page instead of
 * the kiosk's connecting screen. A flat, bounded loop (STYLE C).
 */
export async function waitForAgent(url: URL, opts: { attempts: number; delayMs: number }, deps: WaitDeps): Promise<boolean> {
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    try {
      await deps.fetch(url.href);
      return true;
    } catch (error) {
      // First failure and then every tenth: enough to see it is waiting without flooding the console.
      if (attempt % 10 === 1) deps.log(`waiting for the agent at ${url.href} (attempt ${attempt} of ${opts.attempts}): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (attempt < opts.attempts) await deps.sleep(opts.delayMs);
  }
  return false;
}
