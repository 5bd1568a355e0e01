import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_SIGNATURE_HEADER, SERVICE_TIMESTAMP_HEADER, verifyServiceRequest } from '@erasure/shared';

/** One request as the fake cloud saw it, bytes and all. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  /** The raw bytes parsed, or `undefined` when they are not JSON. */
  readonly json: unknown;
  /** The HMAC over exactly `raw`, checked the way the real cloud checks it. */
  readonly signatureValid: boolean;
}

/** What the fake cloud does with a request that passed the signature check. */
export type Scripted =
  | { readonly status: number; readonly json: unknown }
  | { readonly status: number; readonly raw: string | Buffer; readonly contentType?: string }
  /** Accept the request and never answer. */
  | { readonly hang: true };

export type Script = (request: SeenRequest) => Scripted;

/**
 * A real HTTP peer standing in for the cloud's `/internal/*` API while the cloud is written
 * elsewhere: it enforces the HMAC like the cloud (401 when it fails) and then answers
 * whatever the test scripted, including garbage, 5xx and silence.
 */
export interface FakeCloud {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Replaces the script; the default answers 500 so an unscripted call is loud. */
  script(next: Script): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeCloud(secret: string): Promise<FakeCloud> {
  const seen: SeenRequest[] = [];
  const unscripted: Script = () => ({ status: 500, json: { error: 'unscripted call' } });
  let script = unscripted;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const request: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        json: parse(raw),
        signatureValid: verifyServiceRequest(secret, {
          timestamp: header(req.headers, SERVICE_TIMESTAMP_HEADER),
          signature: header(req.headers, SERVICE_SIGNATURE_HEADER),
          rawBody: raw,
        }),
      };
      seen.push(request);
      if (!request.signatureValid) return send(res, { status: 401, json: { error: 'unauthorized' } });
      send(res, script(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script: (next) => {
      script = next;
    },
    reset: () => {
      seen.length = 0;
      script = unscripted;
    },
    close: async () => {
      // Hanging requests hold their sockets open; cut them so close() resolves.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, reply: Scripted): void {
  if ('hang' in reply) return;
  if ('json' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
    return;
  }
  res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' }).end(reply.raw);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
