type Fetch = typeof fetch;

/** What `POST /sandbox/live_request` answers (spec 4.6). */
export type LiveOutcome =
  | { status: 200; body: { status: number; ok: boolean; body: unknown } }
  | { status: 422 | 502; body: { error: string } };

const scalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/**
 * Proxies one read-only request to the real public API: GET only, and only under `/api/`. The
 * path check runs on the URL after normalisation, so `/api/../internal` cannot slip out.
 */
export async function liveRequest(input: Record<string, unknown>, fetchImpl: Fetch = fetch): Promise<LiveOutcome> {
  const refuse = (error: string): LiveOutcome => ({ status: 422, body: { error } });
  const { base_url: baseUrl, api_key: apiKey, path, query } = input;
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    return refuse('base_url must be an absolute http:// or https:// URL');
  }
  if (typeof apiKey !== 'string' || apiKey.trim() === '') return refuse('api_key is required');
  if (typeof path !== 'string' || !path.startsWith('/api/')) return refuse('path must start with /api/');
  if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query) || !Object.values(query).every(scalar))) {
    return refuse('query must be an object of string, number or boolean values');
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const target = new URL(`${base.origin}${prefix}${path}`);
  if (!target.pathname.startsWith(`${prefix}/api/`)) return refuse('path must start with /api/');
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, string | number | boolean>)) {
    target.searchParams.set(name, String(value));
  }
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(target, {
      method: 'GET',
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    text = await response.text();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    return { status: 502, body: { error: `target unreachable: ${cause ?? (error instanceof Error ? error.message : String(error))}` } };
  }
  let body: unknown = text === '' ? null : text;
  try {
    if (text !== '') body = JSON.parse(text);
  } catch {
    // not JSON: passed through as text
  }
  return { status: 200, body: { status: response.status, ok: response.ok, body } };
}
