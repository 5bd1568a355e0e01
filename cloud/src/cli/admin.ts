import { STRICT_OUTBOUND, type OutboundPolicy } from '../domain/webhooks/ssrf.js';
import { findSubscription } from '../adapters/db/webhook-subscriptions.js';
import { webhookStore } from '../adapters/db/webhook-store.js';
import { rotateWebhookSecret } from '../domain/webhooks/manage.js';
import { CERTIFICATE_LANGUAGES, signDeviceToken, devicePrivateKey, PRODUCTS, TOKEN_STATUSES, type CertificateLanguage, type Product, type TokenStatus } from '@erasure/shared';
import { createAccount, findAccount, setSubscriptionStatus } from '../adapters/db/accounts.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import { createToken, setTokenStatus, type TokenRow } from '../adapters/db/tokens.js';
import { createUser, ROLES, type Role } from '../adapters/db/users.js';
import { hashPassword } from '../adapters/passwords.js';
import type { Clock } from '../adapters/clock.js';
import { mintTermsFrom } from './mint-terms.js';
import { mintPolicyFrom } from './mint-policy.js';
import { findAccountPolicyJson } from '../adapters/db/erasure-policies.js';
import { policyInForce } from '../domain/erasure-policy/policy.js';
import { findDeviceTokenSettings } from '../adapters/db/device-token-settings.js';
import { BUILT_IN_TOKEN_DEFAULTS, tokenTermsOf, type TokenTermsDefaults } from '../domain/devices/token-terms.js';
import { listCertificates } from '../adapters/db/certificates.js';
import { mintApiKey, revokeKey } from '../adapters/db/api-key-issuance.js';
import { createWebhookFromCli, WebhookCliError } from './webhooks.js';

/** A mistake in how the command was called: printed to stderr, exit code 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';
}

export interface AdminDeps {
  db: SqlDatabase;
  clock: Clock;
  /** base64 seed from DEVICE_TOKEN_PRIVATE_KEY; minting refuses without it. */
  deviceTokenPrivateKey: string | undefined;
  /** WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_LOOPBACK: what create-webhook accepts (default strict). */
  outbound?: OutboundPolicy | undefined;
  /** WEBHOOK_SECRET_ROLLOVER_HOURS in ms, for rotate-webhook-secret (default 24 h). */
  webhookSecretRolloverMs?: number | undefined;
  /** DEVICE_TOKEN_DEFAULT_QUOTA / _LIFETIME_DAYS: mint-device-token's terms for an account that chose none. */
  tokenDefaults?: TokenTermsDefaults | undefined;
}

export type Flags = Readonly<Record<string, string | boolean | undefined>>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Longest customer or lot reference a token takes: it is printed on one-page certificates. */
const MAX_LABEL_LENGTH = 120;

/** An optional free-text flag, trimmed; absent or blank is null, `--customer` given alone is a usage error. */
function optionalText(flags: Flags, name: string): string | null {
  const value = flags[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a value`);
  const trimmed = value.trim();
  if (trimmed.length > MAX_LABEL_LENGTH) throw new UsageError(`--${name} must be at most ${MAX_LABEL_LENGTH} characters`);
  return trimmed === '' ? null : trimmed;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

async function account(deps: AdminDeps, flags: Flags) {
  const ref = required(flags, 'account');
  const found = await findAccount(deps.db, ref, deps.clock.now().toISOString());
  if (!found) throw new UsageError(`account ${ref} not found`);
  return found;
}

const accountView = (a: { public_id: string; id: number; name: string; active: boolean; subscription_status: string }) => ({
  id: a.public_id,
  numeric_id: a.id,
  name: a.name,
  active: a.active,
  subscription_status: a.subscription_status,
});

/** The token row as CONTRACT.md prints it (field names of spec section 2). */
export const tokenView = (t: TokenRow) => ({
  prefix_id: t.prefix_id,
  jti: t.jti,
  account_id: t.account_public_id,
  account_name: t.account_name,
  account_active: t.account_active,
  user_email: t.user_email,
  product: t.product,
  status: t.status,
  quota_limit: t.quota_limit,
  use_count: t.use_count,
  last_seen_at: t.last_seen_at,
  revoked_at: t.revoked_at,
  expires_at: t.expires_at,
  created_at: t.created_at,
});

/** Runs one `erasure-cloud admin <command>` and returns the JSON document it prints. */
export async function runAdmin(deps: AdminDeps, command: string | undefined, flags: Flags): Promise<unknown> {
  const now = deps.clock.now().toISOString();
  switch (command) {
    case 'create-account': {
      const created = await createAccount(deps.db, {
        name: required(flags, 'name'),
        subscriptionStatus: flags.inactive ? 'canceled' : 'active',
        now,
      });
      return accountView(created);
    }
    case 'set-account-active': {
      const target = await account(deps, flags);
      const active = oneOf(required(flags, 'active'), ['true', 'false'] as const, 'active');
      await setSubscriptionStatus(deps.db, target.id, active === 'true' ? 'active' : 'canceled', now);
      return accountView((await findAccount(deps.db, target.public_id, now))!);
    }
    case 'create-user': {
      const target = await account(deps, flags);
      const role = oneOf(typeof flags.role === 'string' ? flags.role : 'admin', ROLES, 'role') as Role;
      const password = required(flags, 'password');
      if (password.length < 8) throw new UsageError('--password must be at least 8 characters');
      return await createUser(deps.db, {
        accountId: target.id,
        email: required(flags, 'email'),
        passwordHash: await hashPassword(password),
        role,
        now,
        name: typeof flags.name === 'string' && flags.name.trim() !== '' ? flags.name.trim() : null,
      });
    }
    case 'mint-device-token': {
      if (!deps.deviceTokenPrivateKey) throw new UsageError('DEVICE_TOKEN_PRIVATE_KEY is not set: cannot sign device tokens');
      const key = devicePrivateKey(deps.deviceTokenPrivateKey);
      const target = await account(deps, flags);
      const product = oneOf(typeof flags.product === 'string' ? flags.product : 'engine', PRODUCTS, 'product') as Product;
      const terms = mintTermsFrom(flags, tokenTermsOf(await findDeviceTokenSettings(deps.db, target.id), deps.tokenDefaults ?? BUILT_IN_TOKEN_DEFAULTS));
      if (!terms.ok) throw new UsageError(terms.error);
      // A customer's contract: the token's own erasure policy, checked before anything is written.
      const own = mintPolicyFrom(flags, policyInForce({ token: null, account: await findAccountPolicyJson(deps.db, target.id) }).policy);
      if (!own.ok) throw new UsageError(own.error);
      // The language its certificates are drawn in (issue 31 item 7 part B); left out: the account's.
      const language = typeof flags.language === 'string' ? (oneOf(flags.language, CERTIFICATE_LANGUAGES, 'language') as CertificateLanguage) : null;
      if (flags.language === true) throw new UsageError('--language needs a value');
      const iat = Math.floor(deps.clock.now().getTime() / 1000);
      const exp = iat + terms.lifetimeSeconds;
      const row = await createToken(deps.db, {
        accountId: target.id,
        product,
        quotaLimit: terms.quotaLimit,
        userEmail: typeof flags['user-email'] === 'string' ? flags['user-email'] : null,
        expiresAt: new Date(exp * 1000).toISOString(),
        customer: optionalText(flags, 'customer'),
        lotReference: optionalText(flags, 'lot'),
        erasurePolicyJson: own.policy ? JSON.stringify(own.policy) : null,
        site: optionalText(flags, 'site'),
        certificateLanguage: language,
        now,
      });
      const token = await signDeviceToken(key, { sub: target.public_id, jti: row.jti, issuedAt: iat, expiresAt: exp, product });
      return {
        token,
        jti: row.jti,
        prefix_id: row.prefix_id,
        exp,
        quota_limit: row.quota_limit,
        customer: optionalText(flags, 'customer'),
        lot_reference: optionalText(flags, 'lot'),
        site: optionalText(flags, 'site'),
        certificate_language: language,
        erasure_policy: own.policy,
      };
    }
    case 'set-token-status': {
      const status = oneOf(required(flags, 'status'), TOKEN_STATUSES, 'status') as TokenStatus;
      const row = await setTokenStatus(deps.db, required(flags, 'jti'), status, now);
      if (!row) throw new UsageError(`token ${String(flags.jti)} not found`);
      return tokenView(row);
    }
    case 'mint-api-key': {
      const target = await account(deps, flags);
      const { row, apiKey } = await mintApiKey(deps, { accountId: target.id, name: flags.name, createdByUserId: null });
      return { id: row.public_id, api_key: apiKey };
    }
    case 'revoke-api-key': {
      const row = await revokeKey(deps, required(flags, 'id'));
      if (!row) throw new UsageError(`API key ${String(flags.id)} not found`);
      return { id: row.public_id, revoked_at: row.revoked_at };
    }
    case 'list-certificates':
      return await listCertificates(deps.db, (await account(deps, flags)).id);
    case 'create-webhook':
      try {
        return await createWebhookFromCli({ db: deps.db, clock: deps.clock, outbound: deps.outbound ?? STRICT_OUTBOUND }, flags);
      } catch (error) {
        throw error instanceof WebhookCliError ? new UsageError(error.message) : error;
      }
    case 'rotate-webhook-secret': {
      const row = await findSubscription(deps.db, required(flags, 'id'));
      if (!row) throw new UsageError(`webhook ${String(flags.id)} not found`);
      const rotated = await rotateWebhookSecret({ db: deps.db, clock: deps.clock, store: webhookStore, secretRolloverMs: deps.webhookSecretRolloverMs }, row);
      return { id: row.public_id, signing_secret: rotated.signingSecret, previous_secret_expires_at: rotated.previousSecretExpiresAt };
    }
    default:
      throw new UsageError(
        `unknown admin command ${command ?? '(none)'}; one of create-account, set-account-active, create-user, mint-device-token, set-token-status, list-certificates, mint-api-key, revoke-api-key, create-webhook, rotate-webhook-secret`,
      );
  }
}
