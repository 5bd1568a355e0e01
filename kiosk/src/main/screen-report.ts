import type { ScreenReport } from '@erasure/shared';

/**
 * Sends the watchdog's reports to the agent (POST /api/screen), so the station's state shows the
 * screen and its reloads. A report the agent does not take (it is restarting) is logged and
 * dropped: the screen comes first, and the next report says how it is now.
 */
export function screenReporter(agentUrl: URL, log: (line: string) => void): (r: ScreenReport) => Promise<void> {
  const target = new URL('/api/screen', agentUrl).href;
  return async (r) => {
    try {
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(r), signal: AbortSignal.timeout(5_000) });
      if (!res.ok) log(`the agent did not take the screen report (${res.status}): ${(await res.text()).slice(0, 200)}`);
    } catch (error) {
      log(`the agent did not take the screen report: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
