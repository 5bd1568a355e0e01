import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP proxy in front of an S3 server that can hold uploads open halfway. */
export interface HeldS3Proxy {
  /** The endpoint to give the cloud as S3_ENDPOINT. */
  endpoint: string;
  /** Keys (`bucket/key`) of the uploads held right now: half their body sent on, the rest never read. */
  held(): string[];
  /** Uploads held or forwarded that are still open on either side. */
  open(): number;
  /** Stops holding: uploads from now on pass straight through. */
  release(): void;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` unchanged (the Host header too, so SigV4 signatures still
 * match), except that while holding, a PUT whose path `shouldHold` picks is forwarded with only
 * the first half of its body and then left open. A worker killed at that moment is one killed
 * mid-upload, deterministically: its socket closes, and the proxy cuts the upstream request as
 * the network would, so the S3 server sees a PUT that never finished.
 */
export async function startHeldS3Proxy(target: string, shouldHold: (path: string) => boolean): Promise<HeldS3Proxy> {
  const upstream = new URL(target);
  let holding = true;
  const held = new Set<string>();
  let open = 0;
  const server = createServer((req, res) => {
    open++;
    let closed = false;
    const done = () => {
      if (!closed) open--;
      closed = true;
    };
    const path = req.url ?? '/';
    // Node's server already answered any `Expect: 100-continue`; the upstream request must not wait for one.
    const { expect: _expect, ...headers } = req.headers;
    const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', done);
    });
    up.on('error', () => {
      res.destroy();
      done();
    });
    // The client gone (SIGKILL) before an answer: cut the upload upstream, mid-body.
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
      held.delete(path);
      done();
    });
    if (holding && req.method === 'PUT' && shouldHold(path)) holdHalfway(req, up, () => held.add(path));
    else req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    held: () => [...held].map((path) => decodeURIComponent(path.split('?', 1)[0]!.slice(1))),
    open: () => open,
    release: () => {
      holding = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends on the first half of the body (by Content-Length), then stops reading it. */
function holdHalfway(req: IncomingMessage, up: ReturnType<typeof request>, onHeld: () => void): void {
  const length = Number(req.headers['content-length'] ?? NaN);
  const half = Number.isFinite(length) && length > 1 ? Math.floor(length / 2) : 0;
  let sent = 0;
  const stop = () => {
    req.pause();
    req.removeListener('data', onData);
    onHeld();
  };
  const onData = (chunk: Buffer) => {
    const part = chunk.subarray(0, Math.max(0, half - sent));
    if (part.length > 0) up.write(part);
    sent += part.length;
    if (sent >= half) stop();
  };
  if (half === 0) return stop();
  req.on('data', onData);
}
