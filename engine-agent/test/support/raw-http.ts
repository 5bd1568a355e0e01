import { request } from 'node:http';

/** One HTTP call with exactly the headers given (fetch would add or refuse some, Origin and Host among them). */
export function rawCall(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(opts.path, url), { method: opts.method ?? 'GET', headers: { ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** POST /api/intents with a JSON body and the given headers. */
export const postIntent = (url: string, body: object, headers: Record<string, string> = {}) => rawCall(url, { method: 'POST', path: '/api/intents', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
