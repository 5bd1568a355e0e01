import type { FastifyInstance, FastifyReply } from 'fastify';
import { listDeliveries, type DeliveryLogRow } from '../../adapters/db/webhook-deliveries.js';
import { listSubscriptions, type SubscriptionRow } from '../../adapters/db/webhook-subscriptions.js';
import {
  changeWebhook,
  createWebhook,
  ownWebhook,
  pingWebhook,
  redeliverWebhook,
  removeWebhook,
  rotateWebhookSecret,
  setWebhookActive,
  type Managed,
  type WebhookManageDeps,
} from '../../domain/webhooks/manage.js';
import { shownAttemptError } from '../../domain/webhooks/failure-words.js';
import { WEBHOOK_AUTH_TYPES, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/types.js';
import { webhookView } from '../../domain/webhooks/view.js';
import { pageEnvelope, parsePage } from '../../domain/public-api/query.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

export const DELIVERIES_PAGE_SIZE = 50;

/** A ledger row (spec 2 "Delivery ledger row") with its per-attempt log. */
const deliveryView = (row: DeliveryLogRow, sub: SubscriptionRow) => ({
  id: row.id,
  account_id: sub.account_public_id,
  event_id: row.event_id,
  event_type: row.event_type,
  payload: JSON.parse(row.payload) as unknown,
  status: row.status,
  attempts: row.attempts,
  response_code: row.response_code,
  last_error: shownAttemptError(row.last_error),
  next_attempt_at: row.next_attempt_at,
  delivered_at: row.delivered_at,
  created_at: row.created_at,
  webhook_prefix_id: sub.public_id,
  webhook_url: sub.url,
  attempt_log: row.attempt_log.map((attempt) => ({ ...attempt, error: shownAttemptError(attempt.error) })),
});

const bodyOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

function send<T>(reply: FastifyReply, result: Managed<T>, ok: (value: T) => unknown) {
  return result.ok ? ok(result.value) : reply.code(result.status).send({ error: result.error });
}

/**
 * JSON behind `/webhooks` (spec 2, 3, 6): everyone signed in sees the subscriptions, their health
 * and delivery logs; account admins create, change, enable/disable, delete, redeliver and ping.
 * Writes need the session's CSRF token (requireSession/requireRole).
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookManageDeps): void {
  const admin = { preHandler: requireRole('admin') };
  const own = (accountId: number, id: string) => ownWebhook(deps, accountId, id);

  app.get('/app/api/webhooks', { preHandler: requireSession }, async (request) => {
    const { account, user } = sessionOf(request);
    return {
      webhooks: (await listSubscriptions(deps.db, account.id)).map(webhookView),
      can_manage: user.role === 'admin',
      event_types: WEBHOOK_EVENT_TYPES,
      auth_types: WEBHOOK_AUTH_TYPES,
      allow_http: deps.outbound.allowHttp,
    };
  });

  /** The answer is the only place the signing secret ever appears. */
  app.post('/app/api/webhooks', admin, async (request, reply) => {
    const created = await createWebhook(deps, sessionOf(request).account.id, bodyOf(request.body));
    return send(reply, created, ({ row, signingSecret }) =>
      reply.code(201).header('cache-control', 'no-store').send({ ...webhookView(row), signing_secret: signingSecret }),
    );
  });

  app.put<{ Params: { id: string } }>('/app/api/webhooks/:id', admin, async (request, reply) => {
    const sub = await own(sessionOf(request).account.id, request.params.id);
    if (!sub.ok) return send(reply, sub, () => undefined);
    return send(reply, await changeWebhook(deps, sub.value, bodyOf(request.body)), webhookView);
  });

  for (const [action, active] of [['enable', true], ['disable', false]] as const) {
    app.post<{ Params: { id: string } }>(`/app/api/webhooks/:id/${action}`, admin, async (request, reply) => {
      const sub = await own(sessionOf(request).account.id, request.params.id);
      if (!sub.ok) return send(reply, sub, () => undefined);
      const changed = await setWebhookActive(deps, sub.value, active);
      return { ...webhookView(changed.row), reconciled: changed.reconciled };
    });
  }

  /** A new signing secret, shown this once; the old one signs too until `previous_secret_expires_at`. */
  app.post<{ Params: { id: string } }>('/app/api/webhooks/:id/rotate-secret', admin, async (request, reply) => {
    const sub = await own(sessionOf(request).account.id, request.params.id);
    if (!sub.ok) return send(reply, sub, () => undefined);
    const rotated = await rotateWebhookSecret(deps, sub.value);
    return reply.header('cache-control', 'no-store').send({
      ...webhookView(rotated.row),
      signing_secret: rotated.signingSecret,
      previous_secret_expires_at: rotated.previousSecretExpiresAt,
    });
  });

  app.delete<{ Params: { id: string } }>('/app/api/webhooks/:id', admin, async (request, reply) => {
    const sub = await own(sessionOf(request).account.id, request.params.id);
    if (!sub.ok) return send(reply, sub, () => undefined);
    await removeWebhook(deps, sub.value);
    return { ok: true };
  });

  app.get<{ Params: { id: string }; Querystring: { page?: string } }>(
    '/app/api/webhooks/:id/deliveries',
    { preHandler: requireSession },
    async (request, reply) => {
      const sub = await own(sessionOf(request).account.id, request.params.id);
      if (!sub.ok) return send(reply, sub, () => undefined);
      const parsed = parsePage(request.query.page);
      const page = parsed.ok ? parsed.value : 1;
      const { rows, count } = await listDeliveries(deps.db, sub.value.id, { limit: DELIVERIES_PAGE_SIZE, offset: (page - 1) * DELIVERIES_PAGE_SIZE });
      return { deliveries: rows.map((row) => deliveryView(row, sub.value)), ...pageEnvelope(page, count, DELIVERIES_PAGE_SIZE) };
    },
  );

  app.post<{ Params: { id: string; delivery: string } }>('/app/api/webhooks/:id/deliveries/:delivery/redeliver', admin, async (request, reply) => {
    const sub = await own(sessionOf(request).account.id, request.params.id);
    if (!sub.ok) return send(reply, sub, () => undefined);
    const deliveryId = Number(request.params.delivery);
    if (!Number.isSafeInteger(deliveryId)) return reply.code(404).send({ error: 'unknown delivery' });
    return send(reply, await redeliverWebhook(deps, sub.value, deliveryId), () => ({ ok: true }));
  });

  app.post<{ Params: { id: string } }>('/app/api/webhooks/:id/test', admin, async (request, reply) => {
    const sub = await own(sessionOf(request).account.id, request.params.id);
    if (!sub.ok) return send(reply, sub, () => undefined);
    // The user gets the category (as Push does); where the name resolved and the errno stay here.
    const result = await pingWebhook(deps, sub.value);
    if (result.ok || result.detail === undefined) return result;
    const { detail, ...answer } = result;
    request.log.warn({ webhook: sub.value.public_id, url: sub.value.url, error: detail }, 'webhook test ping failed');
    return answer;
  });
}
