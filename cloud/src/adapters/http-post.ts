import type { OutboundFailure } from '../domain/webhooks/ssrf.js';
import type { OutboundClient } from './outbound-http.js';

/** What an outbound POST came back with; transport failures are values, not throws. */
export type PostOutcome = { ok: true; status: number } | { ok: false; status?: number; error: string; failure?: OutboundFailure };

/** Port for server-side outbound POSTs (the wipes grid's Push, sandbox deliveries). */
export type HttpPoster = (url: string, body: string, headers: Record<string, string>) => Promise<PostOutcome>;

/** The poster over the one outbound client, so every such POST passes the address guard. */
export const posterOf =
  (client: OutboundClient): HttpPoster =>
  (url, body, headers) =>
    client.send(url, body, headers);
