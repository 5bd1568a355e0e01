import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { requireSession } from '../session.js';

/** Where `vite build` puts the pages (cloud/web-dist); the same from src/ and dist/. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web-dist/', import.meta.url));

/**
 * Signed-in pages served by the React app. The browser router decides what each renders; the
 * server only guards them and hands out index.html. A new page adds its path here and its
 * component to web/src/app.tsx.
 */
export const SPA_PAGES = ['/wipes', '/assets', '/assets/:id', '/devices', '/downloads', '/api_tokens', '/webhooks', '/validation', '/floor'] as const;

/** No page of the cloud may be shown inside another site's frame (clickjacking, look-alike pages). */
export const NEVER_FRAMED = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
} as const;

/** Headers of every HTML page: never cached, never framed (the controls must not be clickjacked). */
export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  ...NEVER_FRAMED,
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * The web application's shell: `/` goes to `/wipes`, each page needs a session (else 303 to
 * `/login`), and the built scripts and styles are served from `/static/` with long caching
 * (their names carry a content hash). Without a build, pages answer 503 saying so.
 */
export function registerPages(app: FastifyInstance, options: { webDistDir?: string | undefined } = {}): void {
  const dir = options.webDistDir ?? DEFAULT_WEB_DIST;
  const indexPath = join(dir, 'index.html');
  const index = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : undefined;

  app.get('/', async (_request, reply) => reply.code(303).header('location', '/wipes').send());

  for (const path of SPA_PAGES) {
    app.get(path, { preHandler: requireSession }, async (_request, reply) => {
      if (index === undefined) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The web pages are not built: run `npm run build`.\n');
      }
      return reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(index);
    });
  }

  if (existsSync(join(dir, 'static'))) {
    app.register(fastifyStatic, {
      root: join(dir, 'static'),
      prefix: '/static/',
      index: false,
      wildcard: true,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
    });
  }
}
