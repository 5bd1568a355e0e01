import type { FastifyInstance } from 'fastify';
import {
  findBranding,
  logoKey,
  removeBranding,
  removeBrandingLogo,
  saveBrandingDetails,
  saveBrandingLogo,
  sha256Hex,
  type BrandingRow,
} from '../../adapters/db/account-branding.js';
import type { Clock } from '../../adapters/clock.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { checkLogo, logoEmbedError, LOGO_MAX_BYTES, LOGO_MAX_PIXELS, LOGO_MIN_PIXELS, parseBrandingDetails } from '../../domain/branding/branding.js';
import { requireRole, sessionOf } from '../session.js';

/** Bodies above this are cut off by Fastify (413); between the logo limit and this, the check says why. */
const UPLOAD_BODY_LIMIT = 4 * LOGO_MAX_BYTES;

/** What the settings page is told: the details, whether there is a logo, and the upload rules. */
const view = (row: BrandingRow | undefined) => ({
  branding: {
    company_name: row?.details?.company_name ?? null,
    address_lines: row?.details?.address_lines ?? [],
    contact: row?.details?.contact ?? null,
    logo: row?.logo ? { type: row.logo.type, sha256: row.logo.sha256, href: `/app/api/branding/logo?v=${row.logo.sha256.slice(0, 12)}` } : null,
    updated_at: row?.updated_at ?? null,
  },
  rules: { logo_max_bytes: LOGO_MAX_BYTES, logo_min_pixels: LOGO_MIN_PIXELS, logo_max_pixels: LOGO_MAX_PIXELS, types: ['image/png', 'image/jpeg'] },
});

/**
 * The account's branding on its certificates (issue 31 item 7), admins only: company details as
 * JSON, the logo as the raw bytes of a PNG or JPEG (checked by its bytes; a bad one is a 4xx
 * `{error}` and nothing is stored). Certificates issued from then on carry it; those issued
 * before keep the pages they were signed with. DELETE removes all branding.
 */
export function registerAppBranding(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock; store: ObjectStore | undefined }): void {
  app.register(async (scope) => {
    // Any declared image type (and none in particular) reaches the byte check, which names the problem.
    scope.addContentTypeParser(/^(image\/[\w.+-]+|application\/octet-stream)$/, { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_request, body, done) => done(null, body));
    const admin = { preHandler: requireRole('admin') };

    scope.get('/app/api/branding', admin, async (request) => view(await findBranding(deps.db, sessionOf(request).account.id)));

    scope.put('/app/api/branding', admin, async (request, reply) => {
      const { account, user } = sessionOf(request);
      const parsed = parseBrandingDetails(request.body);
      if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
      await saveBrandingDetails(deps.db, { accountId: account.id, details: parsed.value, userId: user.id, now: deps.clock.now().toISOString() });
      request.log.info({ by: user.publicId }, 'account branding details changed');
      return view(await findBranding(deps.db, account.id));
    });

    scope.delete('/app/api/branding', admin, async (request) => {
      const { account, user } = sessionOf(request);
      await removeBranding(deps.db, account.id);
      request.log.info({ by: user.publicId }, 'account branding removed');
      return view(undefined);
    });

    scope.put('/app/api/branding/logo', admin, async (request, reply) => {
      const { account, user } = sessionOf(request);
      if (!deps.store) return reply.code(503).send({ error: 'this deployment has no object store for logos' });
      if (!(request.body instanceof Buffer)) return reply.code(415).send({ error: 'send the logo as the raw bytes of a PNG or JPEG file (Content-Type image/png or image/jpeg)' });
      const checked = checkLogo(new Uint8Array(request.body));
      if (!checked.ok) return reply.code(request.body.length > LOGO_MAX_BYTES ? 413 : 422).send({ error: checked.error });
      const unreadable = await logoEmbedError(checked.value);
      if (unreadable) return reply.code(422).send({ error: unreadable });
      const sha256 = sha256Hex(checked.value.bytes);
      const key = logoKey(account.publicId, sha256, checked.value.type);
      // The bytes are durable before the row points at them.
      await deps.store.put(key, checked.value.bytes);
      await saveBrandingLogo(deps.db, { accountId: account.id, key, type: checked.value.type, sha256, userId: user.id, now: deps.clock.now().toISOString() });
      request.log.info({ by: user.publicId, bytes: checked.value.bytes.length, type: checked.value.type }, 'account logo uploaded');
      return view(await findBranding(deps.db, account.id));
    });

    scope.delete('/app/api/branding/logo', admin, async (request) => {
      const { account, user } = sessionOf(request);
      await removeBrandingLogo(deps.db, { accountId: account.id, userId: user.id, now: deps.clock.now().toISOString() });
      return view(await findBranding(deps.db, account.id));
    });

    scope.get('/app/api/branding/logo', admin, async (request, reply) => {
      const row = await findBranding(deps.db, sessionOf(request).account.id);
      const bytes = row?.logo && deps.store ? await deps.store.get(row.logo.key) : undefined;
      if (!row?.logo || !bytes) return reply.code(404).send({ error: 'no logo' });
      return reply.type(row.logo.type === 'png' ? 'image/png' : 'image/jpeg').header('x-content-type-options', 'nosniff').send(Buffer.from(bytes));
    });
  });
}
