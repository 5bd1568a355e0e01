import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sameOriginOrNone } from '../api/same-origin.js';
import { pairingCodeMatches, pairingCookieMatches, pairingCookieValue } from './pairing-code.js';
import { pairingPage } from './pairing-page.js';

/** The port the remote kiosk answers on (`erasure.agent_listen`). */
export const REMOTE_KIOSK_PORT = 7071;

/** The cookie a paired browser carries (HttpOnly, SameSite=Strict). */
export const PAIRING_COOKIE = 'erasure_pairing';

/** How the proxy runs. */
export interface RemoteKioskOptions {
  /** The address to listen on: `any` for every interface, else one IP address. */
  readonly listen: string;
  readonly port: number;
  /** The pairing code every call must show (cookie from /pair, or `Authorization: Bearer`). */
  readonly code: string;
  /** The agent's loopback API, e.g. http://127.0.0.1:7070. */
  readonly upstream: URL;
}

/** Headers of one hop only (RFC 9110 7.6.1), never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Longest pairing form body read; anything longer is refused. */
const MAX_FORM_BYTES = 1024;

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const bearerOf = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

/** A paired caller: a browser with the pairing cookie, or a tool that sends the code as a bearer token. */
export function isPaired(code: string, headers: IncomingHttpHeaders): boolean {
  return pairingCookieMatches(code, cookieOf(headers.cookie, PAIRING_COOKIE)) || pairingCodeMatches(code, bearerOf(headers.authorization));
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'", ...extra });
  res.end(body);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** GET /pair shows the form; POST /pair with the right code sets the cookie and goes to the kiosk. */
async function pair(req: IncomingMessage, res: ServerResponse, code: string): Promise<void> {
  if (req.method !== 'POST') return html(res, 200, pairingPage());
  if (!sameOriginOrNone('POST', req.headers.origin, req.headers.host)) return json(res, 403, { error: 'pairing is accepted from this page only' });
  const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? await readForm(req) : undefined;
  if (!form) return html(res, 400, pairingPage('The form could not be read. Type the code again.'));
  if (!pairingCodeMatches(code, form.get('code') ?? undefined)) return html(res, 401, pairingPage("That is not this machine's pairing code. Type the code shown on the machine's own screen."));
  res.writeHead(303, { location: '/', 'set-cookie': `${PAIRING_COOKIE}=${pairingCookieValue(code)}; HttpOnly; SameSite=Strict; Path=/`, 'cache-control': 'no-store' });
  res.end();
}

/** Passes a paired call to the agent as if made on loopback by the agent's own page. */
function forward(req: IncomingMessage, res: ServerResponse, upstream: URL): void {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || name === 'cookie' || name === 'authorization') continue;
    headers[name] = value;
  }
  headers.host = upstream.host;
  // Checked same-origin above: to the agent it is its own page's call.
  if (req.headers.origin !== undefined) headers.origin = upstream.origin;
  const out = request(upstream, { method: req.method, path: req.url, headers }, (answer) => {
    const back: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
    res.writeHead(answer.statusCode ?? 502, back);
    res.flushHeaders(); // an event stream's headers go out before its first event
    answer.pipe(res);
  });
  out.on('error', () => {
    if (!res.headersSent) json(res, 502, { error: 'the agent is not answering' });
    else res.destroy();
  });
  res.on('close', () => out.destroy());
  req.pipe(out);
}

/** The proxy's handler: pairing, then the origin check, then the agent. */
export function remoteKioskHandler(options: Pick<RemoteKioskOptions, 'code' | 'upstream'>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path === '/pair') {
      pair(req, res, options.code).catch(() => res.destroy());
      return;
    }
    if (!isPaired(options.code, req.headers)) {
      // A browser opening the kiosk is sent to the pairing form; API calls get the reason.
      if (req.method === 'GET' && !path.startsWith('/api/')) {
        res.writeHead(303, { location: '/pair', 'cache-control': 'no-store' });
        res.end();
        return;
      }
      return json(res, 401, { error: "pairing required: open /pair and type the code shown on the machine's own screen" });
    }
    if (!sameOriginOrNone(req.method ?? 'GET', req.headers.origin, req.headers.host)) return json(res, 403, { error: 'the remote kiosk accepts changes from its own page only' });
    forward(req, res, options.upstream);
  };
}

/** Starts the proxy on the address the option names; resolves with its URL. */
export async function startRemoteKiosk(options: RemoteKioskOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(remoteKioskHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // `any`: no host, so Node takes every interface (IPv6 and IPv4 where the kernel has both).
    server.listen(options.listen === 'any' ? { port: options.port } : { port: options.port, host: options.listen }, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
