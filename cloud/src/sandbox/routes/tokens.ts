import type { FastifyInstance } from 'fastify';
import { PRODUCTS, TOKEN_STATUSES, type Product, type TokenStatus } from '@erasure/shared';
import { isoNow, type Clock } from '../../adapters/clock.js';
import { listSandboxTokens, mintSandboxToken, patchSandboxToken, type SandboxTokenPatch } from '../../adapters/db/sandbox/tokens.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { asBody, unknownFields } from './harness-auth.js';

/** The operator of anonymous mints that name none. */
export const DEFAULT_USER_EMAIL = 'operator@sandbox.test';

const isQuota = (v: unknown): v is number | null => v === null || (Number.isSafeInteger(v) && (v as number) >= 0);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const nonBlank = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= max;

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** `POST /sandbox/tokens` body: every field optional (spec 4.6); a present field must be valid. */
export function readMint(body: Record<string, unknown>): Checked<{
  account_id?: string; account_name?: string; user_email?: string; product: Product; quota_limit: number | null; status: TokenStatus;
}> {
  const fail = (error: string) => ({ ok: false as const, error });
  const extra = unknownFields(body, ['account_id', 'account_name', 'user_email', 'product', 'quota_limit', 'status']);
  if (extra) return fail(extra);
  const { account_id, account_name, user_email, product = 'engine', quota_limit = null, status = 'active' } = body;
  if (account_id !== undefined && !(typeof account_id === 'string' && /^acct_[0-9A-Za-z]{1,64}$/.test(account_id))) {
    return fail('account_id must look like acct_<id>');
  }
  if (account_name !== undefined && !nonBlank(account_name, 200)) return fail('account_name must be a non-blank string of at most 200 characters');
  if (user_email !== undefined && !(nonBlank(user_email, 320) && /^[^\s@]+@[^\s@]+$/.test(user_email))) return fail('user_email must be an email address');
  if (!PRODUCTS.includes(product as Product)) return fail(`product must be one of ${PRODUCTS.join(', ')}`);
  if (!isQuota(quota_limit)) return fail('quota_limit must be a non-negative integer or null (unlimited)');
  if (!TOKEN_STATUSES.includes(status as TokenStatus)) return fail(`status must be one of ${TOKEN_STATUSES.join(', ')}`);
  return {
    ok: true,
    value: {
      ...(account_id !== undefined ? { account_id: account_id as string } : {}),
      ...(account_name !== undefined ? { account_name: (account_name as string).trim() } : {}),
      ...(user_email !== undefined ? { user_email: (user_email as string).trim() } : {}),
      product: product as Product,
      quota_limit,
      status: status as TokenStatus,
    },
  };
}

/** `PATCH /sandbox/tokens/:jti` body: at least one of the four fields, each valid. */
export function readPatch(body: Record<string, unknown>): Checked<SandboxTokenPatch> {
  const fail = (error: string) => ({ ok: false as const, error });
  const fields = ['status', 'quota_limit', 'use_count', 'account_active'] as const;
  const extra = unknownFields(body, fields);
  if (extra) return fail(extra);
  if (!fields.some((f) => f in body)) return fail(`nothing to change: send any of ${fields.join(', ')}`);
  const patch: SandboxTokenPatch = {};
  if ('status' in body) {
    if (!TOKEN_STATUSES.includes(body.status as TokenStatus)) return fail(`status must be one of ${TOKEN_STATUSES.join(', ')}`);
    patch.status = body.status as TokenStatus;
  }
  if ('quota_limit' in body) {
    if (!isQuota(body.quota_limit)) return fail('quota_limit must be a non-negative integer or null (unlimited)');
    patch.quota_limit = body.quota_limit;
  }
  if ('use_count' in body) {
    if (!isCount(body.use_count)) return fail('use_count must be a non-negative integer');
    patch.use_count = body.use_count;
  }
  if ('account_active' in body) {
    if (typeof body.account_active !== 'boolean') return fail('account_active must be true or false');
    patch.account_active = body.account_active;
  }
  return { ok: true, value: patch };
}

/** Spec 4.6 token rows: mint, list newest first, patch by jti. Not account-scoped. */
export function registerTokenRoutes(scope: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  scope.post('/sandbox/tokens', async (request, reply) => {
    const mint = readMint(asBody(request.body));
    if (!mint.ok) return reply.code(422).send({ error: mint.error });
    const real = request.realAccount;
    const m = mint.value;
    const row = await mintSandboxToken(deps.db, {
      accountPublicId: m.account_id ?? real?.account_id,
      accountName: m.account_name ?? real?.account_name,
      userEmail: m.user_email ?? real?.user_email ?? DEFAULT_USER_EMAIL,
      product: m.product,
      quotaLimit: m.quota_limit,
      status: m.status,
      now: isoNow(deps.clock),
    });
    return reply.code(201).send(row);
  });

  scope.get('/sandbox/tokens', async () => listSandboxTokens(deps.db, isoNow(deps.clock)));

  scope.patch<{ Params: { jti: string } }>('/sandbox/tokens/:jti', async (request, reply) => {
    const patch = readPatch(asBody(request.body));
    if (!patch.ok) return reply.code(422).send({ error: patch.error });
    const row = await patchSandboxToken(deps.db, request.params.jti, patch.value, isoNow(deps.clock));
    return row ? reply.code(200).send(row) : reply.code(404).send({ error: 'unknown token' });
  });
}
