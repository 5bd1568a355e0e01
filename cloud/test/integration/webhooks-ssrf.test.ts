import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient, type Resolve } from '../../src/adapters/outbound-http.js';
import { refusedAddressReason, refusedHostnameReason } from '../../src/domain/webhooks/ssrf.js';
import { checkWebhookUrl } from '../../src/domain/webhooks/subscriptions.js';
import { startReceiver } from '../webhook-helpers.js';

let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('SSRF guard: the decision on addresses (no traffic)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.45.6.7', 'loopback'],
    ['10.0.0.0', 'private'],
    ['10.255.1.2', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['169.254.170.2', 'link-local'],
    ['192.0.0.192', 'reserved'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['[::1]', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    // IPv6 that embeds an IPv4 address is judged by the IPv4 it carries (issue 11, item 2).
    ['::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', 'link-local'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    ['2002:a9fe:a9fe::', 'link-local'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0a00:0001::', 'private'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64'],
    ['64:ff9b:1::808:808', 'NAT64'],
    ['2001:0:a9fe:a9fe::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808'])(
    'allows %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );

  it('the loopback switch allows loopback in every spelling, and nothing else internal', () => {
    const loopback = { allowLoopback: true };
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '::7f00:1']) expect(refusedAddressReason(address, loopback), address).toBeNull();
    expect(refusedHostnameReason('localhost', loopback)).toBeNull();
    for (const address of ['10.0.0.1', '169.254.169.254', '::ffff:a9fe:a9fe', 'fd00::1', '0.0.0.0', '::']) expect(refusedAddressReason(address, loopback), address).not.toBeNull();
  });

  it('refuses names that are not addresses, and well-known internal names before any DNS', () => {
    expect(refusedAddressReason('example.com')).toBe('not an IP address');
    expect(refusedHostnameReason('localhost')).toBe('loopback');
    expect(refusedHostnameReason('api.localhost.')).toBe('loopback');
    expect(refusedHostnameReason('metadata.google.internal')).toBe('cloud metadata');
    expect(refusedHostnameReason('hooks.example.com')).toBeNull();
  });

  it('subscription URLs: https only outside WEBHOOK_ALLOW_HTTP mode, and no internal literals', () => {
    const strict = { allowHttp: false, allowLoopback: false };
    const http = { allowHttp: true, allowLoopback: false };
    expect(checkWebhookUrl('https://hooks.example.com/in', strict)).toEqual({ ok: true, value: 'https://hooks.example.com/in' });
    expect(checkWebhookUrl('http://hooks.example.com/in', strict)).toEqual({ ok: false, error: 'url must use https' });
    expect(checkWebhookUrl('http://hooks.example.com/in', http).ok).toBe(true);
    expect(checkWebhookUrl('ftp://hooks.example.com/in', http)).toEqual({ ok: false, error: 'url must be http or https' });
    for (const url of ['https://127.0.0.1/x', 'https://10.0.0.8/x', 'https://169.254.169.254/latest', 'https://localhost/x', 'https://[::1]/x']) {
      expect(checkWebhookUrl(url, strict).ok, url).toBe(false);
    }
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', strict).ok).toBe(false);
  });

  it('WEBHOOK_ALLOW_HTTP widens only the scheme: internal literals stay refused', () => {
    const http = { allowHttp: true, allowLoopback: false };
    for (const url of ['http://127.0.0.1:9000/x', 'http://localhost/x', 'http://[::127.0.0.1]/x', 'http://[64:ff9b:1::a9fe:a9fe]/x', 'http://2130706433/x']) {
      expect(checkWebhookUrl(url, http).ok, url).toBe(false);
    }
    expect(checkWebhookUrl('http://127.0.0.1:9000/x', { allowHttp: true, allowLoopback: true }).ok).toBe(true);
  });
});

describe('SSRF guard: the dispatcher refuses at connect time', () => {
  const body = '{"event_id":"x"}';
  const headers = { 'content-type': 'application/json' };

  it('refuses 127.0.0.1 and localhost: the loopback receiver sees nothing', async () => {
    receiver = await startReceiver();
 // allowHttp on: the scheme is not what stops these, the address guard is.
    const sender = createOutboundClient({ allowHttp: true, allowLoopback: false, timeoutMs: 2000 });
    try {
      for (const url of [receiver.url, `http://[::7f00:1]:${receiver.port}/hook`, `http://localhost:${receiver.port}/hook`, `http://[::ffff:127.0.0.1]:${receiver.port}/hook`]) {
        const outcome = await sender.send(url, body, headers);
        expect(outcome.ok, url).toBe(false);
        expect(!outcome.ok && outcome.error, url).toMatch(/^refused destination .*loopback address$/);
      }
    } finally {
      await sender.close();
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('checks every address a name resolves to at connect time (DNS rebinding), and connects to none', async () => {
    const lookups: string[] = [];
    // A name that looks public at subscription time but resolves to metadata and private space now.
    const resolve: Resolve = (hostname, callback) => {
      lookups.push(hostname);
      callback(null, [
        { address: '93.184.216.34', family: 4 },
        { address: hostname.startsWith('meta') ? '169.254.169.254' : '10.0.0.7', family: 4 },
      ]);
    };
    const sender = createOutboundClient({ allowHttp: false, allowLoopback: false, timeoutMs: 2000, resolve });
    try {
      const metadata = await sender.send('https://metadata-rebind.example/x', body, headers);
      const internal = await sender.send('https://rebind.example/x', body, headers);
      expect(metadata).toMatchObject({ ok: false, error: 'refused destination metadata-rebind.example (169.254.169.254): link-local address' });
      expect(internal).toMatchObject({ ok: false, error: 'refused destination rebind.example (10.0.0.7): private address' });
    } finally {
      await sender.close();
    }
    expect(lookups).toEqual(['metadata-rebind.example', 'rebind.example']);
  });

  it('with WEBHOOK_ALLOW_LOOPBACK the same sender reaches the loopback receiver (the guard is what refused)', async () => {
    receiver = await startReceiver(() => 204);
    const sender = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 2000 });
    try {
      expect(await sender.send(receiver.url, body, headers)).toMatchObject({ ok: true, status: 204 });
    } finally {
      await sender.close();
    }
    expect(receiver.requests).toHaveLength(1);
  });

  it('never follows a redirect: a 3xx is the answer', async () => {
    receiver = await startReceiver(() => 307);
    const sender = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 2000 });
    try {
      expect(await sender.send(receiver.url, body, headers)).toMatchObject({ ok: true, status: 307 });
    } finally {
      await sender.close();
    }
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('SSRF guard: GETs that read the answer (the sandbox live console)', () => {
  const headers = { accept: 'application/json' };

  it('refuses a loopback GET at connect time: the receiver sees nothing', async () => {
    receiver = await startReceiver();
    const client = createOutboundClient({ allowHttp: true, allowLoopback: false, timeoutMs: 2000 });
    try {
      const outcome = await client.read(receiver.url, headers, { maxBytes: 1024 });
      expect(outcome).toMatchObject({ ok: false, failure: 'refused' });
      expect(!outcome.ok && outcome.error).toMatch(/^refused destination .*loopback address$/);
    } finally {
      await client.close();
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('returns status and body within the limit, and too_large past it', async () => {
    receiver = await startReceiver(() => 200); // answers "ok"
    const client = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 2000 });
    try {
      expect(await client.read(receiver.url, headers, { maxBytes: 2 })).toMatchObject({ ok: true, status: 200, body: 'ok' });
      expect(await client.read(receiver.url, headers, { maxBytes: 1 })).toMatchObject({ ok: false, failure: 'too_large' });
    } finally {
      await client.close();
    }
  });
});
