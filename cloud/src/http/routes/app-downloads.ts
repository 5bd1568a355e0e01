import type { FastifyInstance } from 'fastify';
import { PRODUCTS, type Product } from '@erasure/shared';
import type { Clock } from '../../adapters/clock.js';
import type { WritableDb } from '../../adapters/db/open.js';
import { mintDownloadToken } from '../../adapters/db/download-tokens.js';
import { field } from '../forms.js';
import { requireSession, sessionOf } from '../session.js';

/**
 * `/downloads`: "download image" mints a device token for the signed-in user and hands over the
 * `device-token` file the image build embeds. It is a plain form POST (with `_csrf`), so the
 * browser saves the attachment itself.
 */
export function registerAppDownloads(
  app: FastifyInstance,
  deps: { db: WritableDb; clock: Clock; deviceTokenPrivateKey: string | undefined },
): void {
  app.get('/app/api/downloads', { preHandler: requireSession }, async () => ({
    minting_available: deps.deviceTokenPrivateKey !== undefined,
    products: PRODUCTS,
  }));

  app.post('/app/api/downloads/device-token', { preHandler: requireSession }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const product = field(request.body, 'product') ?? 'engine';
    if (!(PRODUCTS as readonly string[]).includes(product)) return reply.code(422).send({ error: `product must be one of ${PRODUCTS.join(', ')}` });
    const minted = await mintDownloadToken(deps, {
      accountId: account.id,
      accountPublicId: account.publicId,
      userEmail: user.email,
      product: product as Product,
    });
    if (!minted) return reply.code(503).send({ error: 'device token minting is unavailable: DEVICE_TOKEN_PRIVATE_KEY is not configured' });
    request.log.info({ jti: minted.jti, by: user.publicId, product }, 'device token minted for image download');
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', 'attachment; filename="device-token"')
      .header('cache-control', 'no-store')
      .header('x-token-jti', minted.jti)
      .send(`${minted.token}\n`);
  });
}
