import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '../../src/http/trusted-proxies.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, PASSWORD } from '../web-helpers.js';

/**
 * A reverse proxy as a deployment puts in front of the cloud (nginx with
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`): it connects to the cloud from
 * 127.0.0.1 and appends the address its client connected from to any X-Forwarded-For it was sent.
 */
function reverseProxy(upstream: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const out = request(
      { host: upstream.hostname, port: upstream.port, localAddress: '127.0.0.1', method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One sign-in attempt from the loopback address `from` (127.0.0.0/8 is all this machine's) to `base`. */
function login(base: string, from: string, email: string, password: string, headers: IncomingHttpHeaders = {}): Promise<number> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(new URL('/login', base), {
      method: 'POST',
      localAddress: from,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Issue 28 item 2: behind a reverse proxy every request came from the proxy, so one guesser's
 * failures locked out every user. With TRUSTED_PROXIES the cloud counts the client the proxy
 * names, ignores X-Forwarded-For from anyone else, and also limits guesses per account.
 */
describe('sign-in limits behind a reverse proxy (TRUSTED_PROXIES)', { timeout: 120_000 }, () => {
  let cloud: Cloud;
  let proxy: Server;
  let direct: string;
  let viaProxy: string;

  beforeEach(async () => {
    cloud = await startCloud({ deps: { trustedProxy: parseTrustedProxies('127.0.0.1') } });
    const account = await cloud.account();
    await addUser(cloud, account.id, 'admin', 'ana@acme.test');
    await addUser(cloud, account.id, 'technician', 'ben@acme.test');
    direct = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    proxy = await reverseProxy(new URL(direct));
    viaProxy = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await cloud.close();
  });

  const wrongGuesses = async (base: string, from: string, emails: string[], headers?: (i: number) => IncomingHttpHeaders) => {
    const statuses: number[] = [];
    for (const [i, email] of emails.entries()) statuses.push(await login(base, from, email, 'wrong password', headers?.(i)));
    return statuses;
  };
  const randomEmails = (n: number) => Array.from({ length: n }, (_, i) => `guess-${i}-${Math.random().toString(36).slice(2)}@acme.test`);

  it('one guesser with 20 random e-mails through the proxy is stopped, and nobody else is locked out', async () => {
    const statuses = await wrongGuesses(viaProxy, '127.0.0.66', randomEmails(22));
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429]);
    // Five wrong passwords at Ben from the guesser: its own limit, not Ben's nor anyone else's.
    expect(await wrongGuesses(viaProxy, '127.0.0.67', Array(6).fill('ben@acme.test'))).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
    expect(await login(viaProxy, '127.0.0.21', 'ben@acme.test', PASSWORD)).toBe(303);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy, and a forged hop in front of the proxy', async () => {
    const spoofed = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });
    // Straight to the cloud: the header is ignored, the peer's own address is counted.
    const straight = await wrongGuesses(direct, '127.0.0.77', randomEmails(21), spoofed);
    expect(straight.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(straight[20]).toBe(429);
    // Through the proxy: the forged hop is left of the one the proxy appended, so it does not count.
    const forged = await wrongGuesses(viaProxy, '127.0.0.78', randomEmails(21), spoofed);
    expect(forged.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(forged[20]).toBe(429);
  });

  it('four addresses cannot get 20 guesses at one account; the real user still signs in from where they always do', async () => {
    // Ana signed in from her desk before the attack: that address is known to her account.
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
    const statuses: number[] = [];
    for (const from of ['127.0.0.31', '127.0.0.32', '127.0.0.33', '127.0.0.34']) {
      statuses.push(...(await wrongGuesses(viaProxy, from, Array(5).fill('ana@acme.test'))));
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    // A fifth address gets no guess at Ana either, even with the right password: it is refused unchecked.
    expect(await login(viaProxy, '127.0.0.35', 'ana@acme.test', PASSWORD)).toBe(429);
    // Ana, from her known address, with her password: signed in.
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
    // Other accounts are untouched; once the window has passed, any address may try Ana again.
    expect(await login(viaProxy, '127.0.0.35', 'ben@acme.test', PASSWORD)).toBe(303);
    cloud.clock.advance(15 * 60 * 1000);
    expect(await login(viaProxy, '127.0.0.35', 'ana@acme.test', PASSWORD)).toBe(303);
  });

  it('one address hammering past its own limit does not close the account to other addresses', async () => {
    // Five wrong guesses, then thirty more that its own limit refuses unchecked: five guesses at Ana in all.
    const statuses = await wrongGuesses(viaProxy, '127.0.0.41', Array(35).fill('ana@acme.test'));
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(statuses.slice(5)).toEqual(Array(30).fill(429));
    // Ana has never signed in before (no known address), and still gets in from a new one.
    expect(await login(viaProxy, '127.0.0.42', 'ana@acme.test', PASSWORD)).toBe(303);
  });

  it('an address stays known for 30 days after the latest sign-in from it, not the first', async () => {
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
    cloud.clock.advance(20 * 24 * 60 * 60 * 1000);
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
    cloud.clock.advance(20 * 24 * 60 * 60 * 1000);
    // Forty days after the first sign-in, twenty after the latest: an attack on Ana still leaves her desk open.
    for (const from of ['127.0.0.31', '127.0.0.32']) await wrongGuesses(viaProxy, from, Array(5).fill('ana@acme.test'));
    expect(await login(viaProxy, '127.0.0.35', 'ana@acme.test', PASSWORD)).toBe(429);
    expect(await login(viaProxy, '127.0.0.20', 'ana@acme.test', PASSWORD)).toBe(303);
  });
});
