import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CERTIFICATE_LANGUAGES, isCertificateLanguage, PRODUCTS, type CertificateLanguage, type Product } from '@erasure/shared';
import type { BootImages } from '../../adapters/boot-images.js';
import type { Clock } from '../../adapters/clock.js';
import { findDeviceTokenSettings, saveDeviceTokenSettings } from '../../adapters/db/device-token-settings.js';
import { mintDownloadToken, revokeUnfinishedDownloadToken } from '../../adapters/db/download-tokens.js';
import { BUILT_IN_TOKEN_DEFAULTS, LIFETIME_DAYS_BOUNDS, parseTokenTerms, QUOTA_BOUNDS, tokenTermsOf, type TokenTerms, type TokenTermsDefaults } from '../../domain/devices/token-terms.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { DEFAULT_DOWNLOAD_LIMITS, downloadSlots, type DownloadLimits } from '../download-slots.js';
import { field } from '../forms.js';
import { DEFAULT_STALL_SECONDS, superviseDownload } from '../supervised-download.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

/**
 * How an operator makes images downloadable, naming this server's own folder (DATA_DIR/images,
 * `data/cloud/images` under `npm start`); the page shows it while none is installed.
 */
const installHelp = (imagesDir: string | undefined) =>
  imagesDir === undefined
    ? 'Image downloads are off on this server: it was started without an images folder.'
    : `Build the image with npm run iso (it writes iso-build/out/erasure-<version>-amd64.iso), then copy that file into ${imagesDir} on this server.`;

export interface DownloadDeps {
  db: SqlDatabase;
  clock: Clock;
  deviceTokenPrivateKey: string | undefined;
  /** Base images in DATA_DIR/images and their personalizer; absent = image downloads off. */
  images?: BootImages | undefined;
  /** PUBLIC_GATEWAY_URL: the gateway a downloaded image calls. */
  gatewayUrl?: string | undefined;
  /** Concurrent personalizations per account and in total (IMAGE_DOWNLOADS_PER_ACCOUNT, IMAGE_DOWNLOADS_TOTAL). */
  limits?: DownloadLimits | undefined;
  /** IMAGE_DOWNLOAD_STALL_SECONDS: a reader that takes no bytes this long is cut off (default 60). */
  stallSeconds?: number | undefined;
  /** Terms of minted tokens for accounts that chose none (DEVICE_TOKEN_DEFAULT_*); default 100 check-ins, 90 days. */
  tokenDefaults?: TokenTermsDefaults | undefined;
}

/**
 * Retry-After of a 429 for too many downloads at once. When a running one ends is unknown; half
 * a minute lets a short one finish without the page hammering the server.
 */
const RETRY_AFTER_SECONDS = 30;

/** Terms as the page and the settings route show them. */
const termsJson = (terms: TokenTerms) => ({
  quota: terms.quotaLimit ?? 'unlimited',
  lifetime_days: terms.lifetimeDays,
  source: terms.source,
});

/**
 * `/downloads`. "Download image" mints a device token and streams a base image out with it and
 * the gateway URL baked in, personalized as it is sent, never stored per download. "Device token
 * only" hands over the `device-token` file for a build of one's own. Both are plain form POSTs
 * (with `_csrf`), so the browser saves the attachment itself. Only account admins mint, and a
 * token gets the account's terms (quota, lifetime), which its admins set here too.
 */
export function registerAppDownloads(app: FastifyInstance, deps: DownloadDeps): void {
  // Absolute, so the page names the one folder whatever directory the server was started from.
  const imagesDir = deps.images ? resolve(deps.images.dir) : undefined;
  const termsFor = async (accountId: number): Promise<TokenTerms> =>
    tokenTermsOf(await findDeviceTokenSettings(deps.db, accountId), deps.tokenDefaults ?? BUILT_IN_TOKEN_DEFAULTS);

  app.get('/app/api/downloads', { preHandler: requireSession }, async (request) => ({
    can_mint: sessionOf(request).user.role === 'admin',
    token_terms: termsJson(await termsFor(sessionOf(request).account.id)),
    token_terms_bounds: { quota: QUOTA_BOUNDS, lifetime_days: LIFETIME_DAYS_BOUNDS },
    minting_available: deps.deviceTokenPrivateKey !== undefined,
    products: PRODUCTS,
    gateway_configured: deps.gatewayUrl !== undefined,
    /** PUBLIC_GATEWAY_URL, for the page's `erasure-iso personalize` hint; null when not set. */
    gateway_url: deps.gatewayUrl ?? null,
    images_dir: imagesDir ?? null,
    images: (deps.images?.list() ?? []).map((i) => ({ name: i.name, size_bytes: i.sizeBytes, installed_at: i.installedAt, problem: i.problem })),
    install_help: installHelp(imagesDir),
  }));

  /** The token's certificate language: left out or empty follows the account's (null); anything else must be a language. */
  const languageOf = (body: unknown): { ok: true; value: CertificateLanguage | null } | { ok: false } => {
    const language = field(body, 'language');
    if (language === undefined || language === '') return { ok: true, value: null };
    return isCertificateLanguage(language) ? { ok: true, value: language } : { ok: false };
  };
  const LANGUAGE_ERROR = `language must be one of ${CERTIFICATE_LANGUAGES.join(', ')}, or left out to follow the account's`;

  const productOf = (body: unknown): Product | undefined => {
    const product = field(body, 'product') ?? 'engine';
    return (PRODUCTS as readonly string[]).includes(product) ? (product as Product) : undefined;
  };

  /** The account's terms for minted tokens; `quota` is a whole number or "unlimited", spelled out. */
  app.put('/app/api/downloads/token-settings', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const parsed = parseTokenTerms(request.body);
    if (!parsed.ok) return reply.code(422).send({ error: parsed.error });
    await saveDeviceTokenSettings(deps.db, { accountId: account.id, quotaLimit: parsed.quotaLimit, lifetimeDays: parsed.lifetimeDays, userId: user.id, now: deps.clock.now().toISOString() });
    request.log.info({ by: user.publicId, quota: parsed.quotaLimit ?? 'unlimited', lifetime_days: parsed.lifetimeDays }, 'device token terms changed');
    return termsJson(await termsFor(account.id));
  });

  app.post('/app/api/downloads/device-token', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const product = productOf(request.body);
    if (!product) return reply.code(422).send({ error: `product must be one of ${PRODUCTS.join(', ')}` });
    const language = languageOf(request.body);
    if (!language.ok) return reply.code(422).send({ error: LANGUAGE_ERROR });
    const terms = await termsFor(account.id);
    const minted = await mintDownloadToken(deps, { accountId: account.id, accountPublicId: account.publicId, userEmail: user.email, product, terms, certificateLanguage: language.value });
    if (!minted) return reply.code(503).send({ error: 'device token minting is unavailable: DEVICE_TOKEN_PRIVATE_KEY is not configured' });
    request.log.info({ jti: minted.jti, by: user.publicId, product }, 'device token minted for image download');
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', 'attachment; filename="device-token"')
      .header('cache-control', 'no-store')
      .header('x-token-jti', minted.jti)
      .send(`${minted.token}\n`);
  });

  const slots = downloadSlots(deps.limits ?? DEFAULT_DOWNLOAD_LIMITS);
  const stallMs = (deps.stallSeconds ?? DEFAULT_STALL_SECONDS) * 1000;
  const revokeUnused = (jti: string) => revokeUnfinishedDownloadToken(deps.db, jti, deps.clock.now().toISOString());

  app.post('/app/api/downloads/image', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const product = productOf(request.body);
    if (!product) return reply.code(422).send({ error: `product must be one of ${PRODUCTS.join(', ')}` });
    const language = languageOf(request.body);
    if (!language.ok) return reply.code(422).send({ error: LANGUAGE_ERROR });
    const installed = deps.images?.list() ?? [];
    const name = field(request.body, 'image') ?? installed.find((i) => i.problem === null)?.name ?? installed[0]?.name;
    const image = installed.find((i) => i.name === name);
    if (!name || !image) return reply.code(404).send({ error: installed.length === 0 ? `no base image is installed. ${installHelp(imagesDir)}` : `no image named ${name ?? ''}` });
    if (image.problem) return reply.code(422).send({ error: `${name} ${image.problem}` });
    if (!deps.gatewayUrl) return reply.code(503).send({ error: 'image downloads are unavailable: PUBLIC_GATEWAY_URL is not configured' });
    const slot = slots.take(account.id);
    if (!slot.ok) {
      const who = slot.scope === 'account' ? 'your account has' : 'this server has';
      return reply
        .code(429)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ error: `too many image downloads at once: ${who} as many running as it may. Try again when one has finished.` });
    }
    // From here every path frees the slot, and every path but a completed download revokes the token.
    let minted: Awaited<ReturnType<typeof mintDownloadToken>>;
    let out: Awaited<ReturnType<BootImages['personalize']>>;
    try {
      // Mint only once everything else is known to be in place: a refused download leaves no token behind.
      minted = await mintDownloadToken(deps, { accountId: account.id, accountPublicId: account.publicId, userEmail: user.email, product, terms: await termsFor(account.id), certificateLanguage: language.value });
      if (!minted) {
        slot.release();
        return reply.code(503).send({ error: 'device token minting is unavailable: DEVICE_TOKEN_PRIVATE_KEY is not configured' });
      }
      out = await deps.images?.personalize(name, { deviceToken: minted.token, gatewayUrl: deps.gatewayUrl });
    } catch (error) {
      slot.release();
      if (minted) await revokeUnused(minted.jti);
      throw error;
    }
    if (!out) {
      slot.release();
      await revokeUnused(minted.jti);
      return reply.code(404).send({ error: `no image named ${name}` });
    }
    const jti = minted.jti;
    request.log.info({ jti, by: user.publicId, product, image: name }, 'personalized image download started');
    const download = superviseDownload(out, reply.raw, { stallMs });
    // The slot is freed last, once xorriso has exited and the token's fate is recorded.
    void download.outcome
      .then(async ({ outcome, error }) => {
        if (outcome === 'completed') return request.log.info({ jti, image: name }, 'personalized image download completed');
        if (outcome === 'failed') request.log.error({ err: error, jti, image: name }, 'personalizing the image failed');
        await revokeUnused(jti);
        request.log.warn({ jti, image: name, outcome }, 'image download did not complete: its device token is revoked');
      })
      .catch((error: unknown) => request.log.error({ err: error, jti }, 'revoking the token of an unfinished download failed'))
      .finally(() => slot.release());
    const file = `${name.replace(/\.iso$/, '')}-${product}-${minted.prefix_id}.iso`;
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${file}"`)
      .header('cache-control', 'no-store')
      .header('x-token-jti', jti)
      .send(download.body);
  });
}
