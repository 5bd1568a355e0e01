import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { SqlRunner } from '../sql/database.js';
import {
  findLiveApiKeyByHash,
  insertApiKey,
  revokeApiKey,
  type ApiKeyAuthRow,
  type ApiKeyRow,
} from './api-keys.js';

export interface ApiKeyDeps {
  db: SqlRunner;
  clock: Clock;
}

/** Every key starts with this, so a leaked one is recognisable in logs and secret scanners. */
export const API_KEY_PREFIX = 'ek_';
const KEY_PATTERN = /^ek_[A-Za-z0-9_-]{43}$/;
/** The longest key name kept; the web app refuses a longer one rather than cutting it (issue 28, item 16). */
export const MAX_NAME_LENGTH = 100;

/**
 * SHA-256 of the key. Keys are 256 random bits, not human passwords, so a fast unsalted hash
 * is safe here and keeps the per-request lookup a single indexed equality.
 */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A cleaned-up display name, or the default when blank. */
export function apiKeyName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim().slice(0, MAX_NAME_LENGTH) : '';
  return trimmed === '' ? 'API key' : trimmed;
}

/** Mints a key; the returned `apiKey` is the only time the secret exists outside the caller. */
export async function mintApiKey(
  deps: ApiKeyDeps,
  input: { accountId: number; name?: unknown; createdByUserId: number | null },
): Promise<{ row: ApiKeyRow; apiKey: string }> {
  const apiKey = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertApiKey(deps.db, {
    accountId: input.accountId,
    name: apiKeyName(input.name),
    keyHash: hashApiKey(apiKey),
    keyPrefix: apiKey.slice(0, 10),
    createdByUserId: input.createdByUserId,
    now: deps.clock.now().toISOString(),
  });
  return { row, apiKey };
}

/** Revocation is immediate: the next request with the key finds no live row. */
export async function revokeKey(deps: ApiKeyDeps, publicId: string, accountId?: number): Promise<ApiKeyRow | undefined> {
  return revokeApiKey(deps.db, publicId, deps.clock.now().toISOString(), accountId);
}

/**
 * The live key an `Authorization` header carries, or undefined for a missing, malformed,
 * unknown or revoked key: the caller answers all of those alike (401, empty body).
 */
export async function authenticateApiKey(deps: ApiKeyDeps, authorization: string | undefined): Promise<ApiKeyAuthRow | undefined> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || !KEY_PATTERN.test(key)) return undefined;
  return findLiveApiKeyByHash(deps.db, hashApiKey(key), deps.clock.now().toISOString());
}
