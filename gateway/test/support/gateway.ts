import type { KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { createForwarder } from '../../src/forward.js';
import { buildGatewayApp } from '../../src/http/app.js';

export const SECRET = 'test-internal-secret-0123456789abcdef';

export interface GatewayOptions {
  readonly cloudUrl: string;
  readonly publicKey: KeyObject | undefined;
  /** `undefined` = the gateway was started without `INTERNAL_API_SECRET`. */
  readonly secret: string | undefined;
  readonly timeoutMs?: number;
}

export interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly token?: string;
  /** Sent as `Authorization` verbatim, for malformed headers. */
  readonly authorization?: string;
  /** Serialised with JSON.stringify and sent as application/json. */
  readonly json?: unknown;
  /** Sent as is, for bodies JSON.stringify cannot produce. */
  readonly raw?: string;
  readonly contentType?: string;
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** A real gateway on an ephemeral port, wired to a fake cloud, with its log captured. */
export interface GatewayUnderTest {
  readonly url: string;
  readonly logLines: () => Record<string, unknown>[];
  call(path: string, options?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<GatewayUnderTest> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const forwarder = createForwarder({ baseUrl: options.cloudUrl, secret: options.secret, timeoutMs: options.timeoutMs ?? 2_000 });
  const sut = buildGatewayApp({ publicKey: options.publicKey, forwarder, logger: { level: 'info', stream } });
  await sut.listen({ host: '127.0.0.1', port: 0 });
  const { port } = sut.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    logLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    call: (path, call = {}) => send(url, path, call),
    close: async () => {
      await sut.close();
      await forwarder.close();
    },
  };
}

async function send(base: string, path: string, options: CallOptions): Promise<Answer> {
  const headers: Record<string, string> = {};
  const authorization = options.authorization ?? (options.token === undefined ? undefined : `Bearer ${options.token}`);
  if (authorization !== undefined) headers.authorization = authorization;
  let body: string | undefined;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (options.raw !== undefined) body = options.raw;
  if (body !== undefined || options.contentType !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await request(`${base}${path}`, { method: options.method ?? 'POST', headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, body: parse(text), text };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
