/** What an outbound POST came back with; transport failures are values, not throws. */
export type PostOutcome = { ok: true; status: number } | { ok: false; error: string };

/** Port for server-side outbound POSTs (the wipes grid's Push). */
export type HttpPoster = (url: string, body: string, headers: Record<string, string>) => Promise<PostOutcome>;

/**
 * POST with a hard timeout and without following redirects: a configured endpoint must answer
 * itself, never bounce the cloud's signed request somewhere else.
 */
export function createHttpPoster(timeoutMs = 10_000): HttpPoster {
  return async (url, body, headers) => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return { ok: true, status: response.status };
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, error: `no answer within ${timeoutMs / 1000} s` };
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      return { ok: false, error: cause ?? (error instanceof Error ? error.message : 'request failed') };
    }
  };
}
