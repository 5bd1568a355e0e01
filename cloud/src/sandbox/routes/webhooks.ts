import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isoNow, type Clock } from '../../adapters/clock.js';
import { listSandboxDeliveries } from '../../adapters/db/sandbox/deliveries.js';
import { ensureSandboxAccount } from '../../adapters/db/sandbox/tokens.js';
import {
  deleteSandboxWebhook,
  findSandboxWebhook,
  insertSandboxWebhook,
  listSandboxWebhooks,
  SANDBOX_EVENT_TYPES,
  toPublicWebhook,
  updateSandboxWebhook,
  type SandboxEventType,
  type WebhookAuthType,
} from '../../adapters/db/sandbox/webhooks.js';
import type { OutboundPolicy } from '../../domain/webhooks/ssrf.js';
import { checkWebhookUrl } from '../../domain/webhooks/subscriptions.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { SINK_URL, sinkCaptures, type SandboxWebhooks } from '../webhooks/delivery.js';
import { asBody, unknownFields } from './harness-auth.js';

/** Spec 4.6 / 7: no account_id and no API key to derive one from. */
export const ACCOUNT_REQUIRED = { error: 'account_id required (or authorize with an API key)' } as const;
const UNKNOWN_WEBHOOK = { error: 'unknown webhook' } as const;

const isEventType = (v: unknown): v is SandboxEventType => SANDBOX_EVENT_TYPES.includes(v as SandboxEventType);
const EVENT_TYPE_ERROR = `event_type must be one of ${SANDBOX_EVENT_TYPES.join(', ')}`;

/**
 * Spec 6: sandbox URLs may be http://, https:// or the built-in sink; an http(s) URL passes the
 * cloud's own check (no credentials, no internal literal or name), so the answer is the URL or
 * the reason it is refused.
 */
function targetUrl(v: unknown, outbound: OutboundPolicy): { ok: true; url: string } | { ok: false; error: string } {
  if (v === SINK_URL) return { ok: true, url: SINK_URL };
  const checked = checkWebhookUrl(v, outbound);
  if (checked.ok) return { ok: true, url: checked.value };
  return { ok: false, error: checked.error.startsWith('url must be') ? URL_ERROR : checked.error };
}
const URL_ERROR = `url must be ${SINK_URL} or an http:// or https:// URL`;

type Auth = { type: WebhookAuthType; token?: string; username?: string; password?: string };

function readAuth(body: Record<string, unknown>): Auth | string {
  const type = body.auth_type ?? 'none';
  const text = (v: unknown) => typeof v === 'string' && v !== '' && v.length <= 1000;
  if (type === 'none') return { type };
  if (type === 'bearer') return text(body.auth_token) ? { type, token: body.auth_token as string } : 'auth_type bearer needs auth_token';
  if (type === 'basic') {
    if (!text(body.auth_username)) return 'auth_type basic needs auth_username (and auth_password)';
    return { type, username: body.auth_username as string, password: typeof body.auth_password === 'string' ? body.auth_password : '' };
  }
  return 'auth_type must be one of none, bearer, basic';
}

/** Spec 4.6 webhook subscriptions, test pings, the delivery ledger and the sink. */
export function registerWebhookRoutes(scope: FastifyInstance, deps: { db: SqlDatabase; clock: Clock; webhooks: SandboxWebhooks; outbound: OutboundPolicy }): void {
  const listed = (w: Parameters<typeof toPublicWebhook>[0]) => {
    // The secret is shown once, at creation: the listings are not account-scoped.
    const { signing_secret: _secret, ...rest } = toPublicWebhook(w);
    return rest;
  };

  scope.post('/sandbox/webhooks', async (request, reply) => {
    const body = asBody(request.body);
    const extra = unknownFields(body, ['event_type', 'account_id', 'url', 'auth_type', 'auth_token', 'auth_username', 'auth_password']);
    if (extra) return reply.code(422).send({ error: extra });
    if (!isEventType(body.event_type)) return reply.code(422).send({ error: EVENT_TYPE_ERROR });
    const accountId = body.account_id ?? request.realAccount?.account_id;
    if (accountId === undefined || accountId === null || accountId === '') return reply.code(422).send(ACCOUNT_REQUIRED);
    if (typeof accountId !== 'string' || !/^acct_[0-9A-Za-z]{1,64}$/.test(accountId)) {
      return reply.code(422).send({ error: 'account_id must look like acct_<id>' });
    }
    const target = targetUrl(body.url ?? SINK_URL, deps.outbound);
    if (!target.ok) return reply.code(422).send({ error: target.error });
    const url = target.url;
    const auth = readAuth(body);
    if (typeof auth === 'string') return reply.code(422).send({ error: auth });
    const now = isoNow(deps.clock);
    const real = request.realAccount;
    const created = await deps.db.transaction(async (tx) => {
      const name = real && real.account_id === accountId ? real.account_name : undefined;
      const account = await ensureSandboxAccount(tx, { publicId: accountId, name, now });
      const signingSecret = randomBytes(32).toString('hex');
      return insertSandboxWebhook(tx, { accountId: account.id, eventType: body.event_type as SandboxEventType, url, signingSecret, auth, now });
    });
    return reply.code(201).send(toPublicWebhook(created));
  });

  scope.get('/sandbox/webhooks', async () => (await listSandboxWebhooks(deps.db)).map(listed));

  scope.patch<{ Params: { id: string } }>('/sandbox/webhooks/:id', async (request, reply) => {
    const body = asBody(request.body);
    const extra = unknownFields(body, ['active', 'url', 'event_type']);
    if (extra) return reply.code(422).send({ error: extra });
    if (!('active' in body) && !('url' in body) && !('event_type' in body)) {
      return reply.code(422).send({ error: 'nothing to change: send any of active, url, event_type' });
    }
    if ('active' in body && typeof body.active !== 'boolean') return reply.code(422).send({ error: 'active must be true or false' });
    const target = 'url' in body ? targetUrl(body.url, deps.outbound) : undefined;
    if (target && !target.ok) return reply.code(422).send({ error: target.error });
    if ('event_type' in body && !isEventType(body.event_type)) return reply.code(422).send({ error: EVENT_TYPE_ERROR });
    const updated = await updateSandboxWebhook(
      deps.db,
      request.params.id,
      { ...(body as { active?: boolean; event_type?: SandboxEventType }), ...(target?.ok ? { url: target.url } : {}) },
      isoNow(deps.clock),
    );
    return updated ? listed(updated) : reply.code(404).send(UNKNOWN_WEBHOOK);
  });

  scope.delete<{ Params: { id: string } }>('/sandbox/webhooks/:id', async (request, reply) =>
    (await deleteSandboxWebhook(deps.db, request.params.id)) ? { ok: true } : reply.code(404).send(UNKNOWN_WEBHOOK),
  );

  scope.post<{ Params: { id: string } }>('/sandbox/webhooks/:id/test', async (request, reply) => {
    const webhook = await findSandboxWebhook(deps.db, request.params.id);
    return webhook ? deps.webhooks.ping(webhook) : reply.code(404).send(UNKNOWN_WEBHOOK);
  });

  scope.get('/sandbox/webhook_deliveries', async () => listSandboxDeliveries(deps.db));
  scope.get('/sandbox/sink', async () => sinkCaptures(deps.db));
}
