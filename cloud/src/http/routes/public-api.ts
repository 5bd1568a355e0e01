import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_API_ERRORS, PUBLIC_API_PAGE_SIZE, publicApi, type AssetListQuery } from '@erasure/shared';
import type { Clock } from '../../adapters/clock.js';
import type { ApiKeyAuthRow } from '../../adapters/db/api-keys.js';
import { touchApiKey } from '../../adapters/db/api-keys.js';
import { findAssetDetail, listAssetSummaries } from '../../adapters/db/asset-reads.js';
import { authenticateApiKey } from '../../adapters/db/api-key-issuance.js';
import { wipeGridReaderOnce } from '../../adapters/db/wipes-grid.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { checkAccountFilter, pageEnvelope, parsePage, parseSince, type QueryParse } from '../../domain/public-api/query.js';
import { toAssetDetail, toAssetSummary, toPublicAccount } from '../../domain/public-api/summary.js';
import { FixedWindowCounter, type WindowStore } from '../../domain/rate-limit/fixed-window.js';
import { registerPublicCertificates } from './public-api-certificates.js';
import { registerPublicWipes } from './public-api-wipes.js';

export interface PublicApiDeps {
  db: SqlDatabase;
  clock: Clock;
  /** Requests per key per window; default 600 per minute. */
  rateLimit?: { limit: number; windowMs: number } | undefined;
  /** Where the windows are counted (the database: one limit across processes and restarts). */
  windows: WindowStore;
  /** Issue 31 item 5: the base of the certificates' links, as the certificate routes use it. */
  publicBaseUrl?: string | undefined;
  /** Issue 31 item 5: keys the presigned PDF links; the certificate store's, absent when certificates are not wired. */
  urlSigningSecret?: Uint8Array | undefined;
  /** Issue 31 item 5: the certificate store, where the lot certificates' PDFs are kept; absent when certificates are not wired. */
  store?: ObjectStore | undefined;
}

export const DEFAULT_PUBLIC_API_RATE_LIMIT = { limit: 600, windowMs: 60_000 };
// last_used_at is for people ("used 3 minutes ago"): one write per key per minute is plenty,
// and keeps the read path free of a write per request.
const TOUCH_EVERY_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key of a public API request. */
    apiKey: ApiKeyAuthRow | null;
  }
}

/** A strong ETag over the exact body bytes: unchanged page, same tag, 304 on revalidation. */
function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

function sendJson(request: FastifyRequest, reply: FastifyReply, body: unknown): FastifyReply {
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.code(200).type('application/json; charset=utf-8').send(text);
}

const refuse = (reply: FastifyReply, failed: Extract<QueryParse<unknown>, { ok: false }>) =>
  reply.code(failed.status).send({ error: failed.error });

/** A query value; a repeated parameter counts by its last occurrence. */
const stringParam = (value: unknown): string | undefined => {
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
};

function accountOf(key: ApiKeyAuthRow) {
  return toPublicAccount({
    id: key.account_id,
    publicId: key.account_public_id,
    name: key.account_name,
    active: key.account_active,
    subscriptionStatus: key.subscription_status,
    currentPeriodEnd: key.current_period_end,
    createdAt: key.account_created_at,
  });
}

/**
 * The public read-only API of spec 4.3 under `/api/v1`. Every request needs a live API key
 * (401, empty body, otherwise) and counts against that key's fixed-window rate limit; every
 * read is scoped to the key's account and never widened by a parameter.
 */
export function registerPublicApi(app: FastifyInstance, deps: PublicApiDeps): void {
  const limits = deps.rateLimit ?? DEFAULT_PUBLIC_API_RATE_LIMIT;
  app.register(async (scope) => {
    const counter = new FixedWindowCounter(limits.limit, limits.windowMs, deps.windows, 'api');
    const lastTouched = new Map<number, number>();
    const wipeGrid = wipeGridReaderOnce(deps.db);
    scope.decorateRequest('apiKey', null);

    scope.addHook('onRequest', async (request, reply) => {
      const key = await authenticateApiKey(deps, request.headers.authorization);
      if (!key) return reply.code(401).send();
      request.apiKey = key;
      const nowMs = deps.clock.now().getTime();
      const window = await counter.hit(key.key_public_id, nowMs);
      const resetSeconds = Math.max(0, Math.ceil((window.resetAt - nowMs) / 1000));
      reply
        .header('ratelimit-limit', String(window.limit))
        .header('ratelimit-remaining', String(window.remaining))
        .header('ratelimit-reset', String(resetSeconds));
      if (window.limited) {
        return reply.code(429).header('retry-after', String(resetSeconds)).send({ error: PUBLIC_API_ERRORS.rateLimited });
      }
      if ((lastTouched.get(key.key_id) ?? 0) + TOUCH_EVERY_MS <= nowMs) {
        lastTouched.set(key.key_id, nowMs);
        await touchApiKey(deps.db, key.key_id, new Date(nowMs).toISOString());
      }
    });

    scope.get(publicApi.listAssets.url, async (request, reply) => {
      const key = request.apiKey!;
      const query = request.query as AssetListQuery;
      const scoped = checkAccountFilter(stringParam(query.account_id), { publicId: key.account_public_id, numericId: key.account_id });
      if (!scoped.ok) return refuse(reply, scoped);
      const since = parseSince(stringParam(query.since));
      if (!since.ok) return refuse(reply, since);
      const page = parsePage(stringParam(query.page));
      if (!page.ok) return refuse(reply, page);
      const serial = stringParam(query.serial);
      const { rows, count } = await listAssetSummaries(
        deps.db,
        { accountId: key.account_id, since: since.value, serial },
        { limit: PUBLIC_API_PAGE_SIZE, offset: (page.value - 1) * PUBLIC_API_PAGE_SIZE },
      );
      return sendJson(request, reply, {
        assets: rows.map((row) => toAssetSummary(row, key.account_public_id)),
        ...pageEnvelope(page.value, count),
      });
    });

    scope.get(publicApi.getAsset.url, async (request, reply) => {
      const key = request.apiKey!;
      const { id } = request.params as { id: string };
      const row = await findAssetDetail(deps.db, key.account_id, id);
      if (!row) return reply.code(404).send({ error: PUBLIC_API_ERRORS.assetNotFound });
      // The machine's erased drives with their health grades (issue 30 item 6), as the grid attributes them.
      const wipes = await (await wipeGrid()).byAsset(key.account_id, id);
      return sendJson(request, reply, toAssetDetail(row, key.account_public_id, wipes));
    });

    // Issue 31 item 5: the account's wipes, in the assets' shape and sync rules.
    registerPublicWipes(scope, { wipeGrid, send: sendJson });
    // Issue 31 item 5: certificates by number with their PDFs, and the account's lot documents.
    registerPublicCertificates(scope, { db: deps.db, clock: deps.clock, publicBaseUrl: deps.publicBaseUrl, urlSigningSecret: deps.urlSigningSecret, store: deps.store, send: sendJson });

    scope.get(publicApi.listAccounts.url, async (request, reply) =>
      sendJson(request, reply, { accounts: [accountOf(request.apiKey!)], ...pageEnvelope(1, 1) }),
    );

    scope.get(publicApi.me.url, async (request, reply) => {
      const key = request.apiKey!;
      return sendJson(request, reply, {
        api_key: { id: key.key_public_id, name: key.key_name, created_at: key.key_created_at },
        account: accountOf(key),
        account_id: key.account_public_id,
        account_name: key.account_name,
        user_email: key.created_by_email,
      });
    });
  });
}
