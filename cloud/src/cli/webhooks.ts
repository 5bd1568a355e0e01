import type { OutboundPolicy } from '../domain/webhooks/ssrf.js';
import { webhookStore } from '../adapters/db/webhook-store.js';
import { findAccount } from '../adapters/db/accounts.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import type { Clock } from '../adapters/clock.js';
import { createWebhook } from '../domain/webhooks/manage.js';
import { productionPolicy } from '../domain/webhooks/policy.js';
import { webhookView } from '../domain/webhooks/view.js';

/** Usage mistakes are reported by the caller's UsageError; this module only says what is wrong. */
export class WebhookCliError extends Error {}

type Flags = Readonly<Record<string, string | boolean | undefined>>;

const flag = (flags: Flags, name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);

/**
 * `admin create-webhook --account ID --event-type T --url U [--auth-type none|bearer|basic]
 * [--token T | --username U --password P]` (CONTRACT.md): prints the subscription with its
 * `signing_secret`, the only time it is shown. The same checks as the web page apply (https
 * unless WEBHOOK_ALLOW_HTTP=1, six event types, credentials matching the auth type).
 */
export async function createWebhookFromCli(deps: { db: SqlDatabase; clock: Clock; outbound: OutboundPolicy }, flags: Flags) {
  const ref = flag(flags, 'account');
  if (!ref) throw new WebhookCliError('--account is required');
  const account = await findAccount(deps.db, ref, deps.clock.now().toISOString());
  if (!account) throw new WebhookCliError(`account ${ref} not found`);
  const created = await createWebhook(
    {
      ...deps,
      store: webhookStore,
      policy: productionPolicy(),
      // Creating never sends anything; the transport is for test pings, which the CLI has none of.
      sender: { send: async () => ({ ok: false, error: 'no transport in the admin CLI', durationMs: 0 }), close: async () => undefined },
    },
    account.id,
    {
      event_type: flag(flags, 'event-type'),
      url: flag(flags, 'url'),
      auth_type: flag(flags, 'auth-type') ?? 'none',
      token: flag(flags, 'token'),
      username: flag(flags, 'username'),
      password: flag(flags, 'password'),
    },
  );
  if (!created.ok) throw new WebhookCliError(created.error);
  return { ...webhookView(created.value.row), signing_secret: created.value.signingSecret };
}
