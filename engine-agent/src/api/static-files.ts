import { createReadStream, promises as fsp } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The kiosk never runs inside another page: typing "ERASE N DRIVES" is all that stands between a
 * click and an erase, so a page that framed it could trick a technician into both (clickjacking).
 * The remote kiosk relays these headers with the page. The Electron shell loads the page as its
 * top-level window, which framing rules do not touch.
 */
export const NEVER_FRAMED = { 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" } as const;

async function isFile(path: string): Promise<boolean> {
  return (await fsp.stat(path).catch(() => undefined))?.isFile() === true;
}

/**
 * Serves the kiosk renderer (a built single-page app) at `/`, so the kiosk also runs in a plain
 * browser at the agent's loopback origin (ARCHITECTURE 9). A path that is not a file falls back
 * to index.html for client-side routes, unless it names a file type (a missing asset stays a
 * 404). Paths are resolved inside `root` only. Written by hand rather than with @fastify/static:
 * the boot image pins exact dependencies, and this is all the agent needs.
 */
export async function registerRenderer(app: FastifyInstance, dir: string): Promise<boolean> {
  const root = resolve(dir);
  if (!(await isFile(join(root, 'index.html')))) return false;
  app.get('/*', async (req, reply) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://agent').pathname);
    } catch {
      return reply.code(400).send({ error: 'malformed path' });
    }
    if (pathname.startsWith('/api/')) return reply.code(404).send({ error: 'not found' });
    const wanted = resolve(root, `.${pathname}`);
    if (wanted !== root && !wanted.startsWith(root + sep)) return reply.code(404).send({ error: 'not found' });
    let file = wanted;
    if (!(await isFile(file))) {
      if (extname(pathname) !== '') return reply.code(404).send({ error: 'not found' });
      file = join(root, 'index.html');
    }
    // index.html must be re-read after a kiosk rebuild; hashed assets may be cached.
    const cache = file.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600';
    return reply
      .type(TYPES[extname(file)] ?? 'application/octet-stream')
      .header('cache-control', cache)
      .headers(NEVER_FRAMED)
      .send(createReadStream(file));
  });
  return true;
}
