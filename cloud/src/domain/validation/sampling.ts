import { randomInt } from 'node:crypto';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type * as ValidationDb from '../../adapters/db/validation.js';

/** The repository functions sampling and reports call (adapters/db/validation.ts). */
export type ValidationStore = typeof ValidationDb;

/** R2v3 Appendix B as auditors cite it: at least 5 % of each lot, and at least one drive. */
export const DEFAULT_VALIDATION_RATE_PERCENT = 5;
export const VALIDATION_RATE_BOUNDS = { min: 1, max: 100 } as const;

/** A uniform integer in [0, below); crypto's by default, so nobody can predict the pick. */
export type PickRandom = (below: number) => number;

/**
 * How many drives of a lot should be picked. While the lot fills, one more each time another
 * whole 100/rate drives were certified (floor); once it is closed, the rest rounded up, and at
 * least one drive (ceil, minimum 1). Picks are never taken back, so a lot only grows its sample.
 */
export function sampleTarget(certified: number, ratePercent: number, closed: boolean): number {
  if (certified <= 0) return 0;
  const exact = certified * ratePercent;
  const target = closed ? Math.max(1, Math.ceil(exact / 100)) : Math.floor(exact / 100);
  return Math.min(certified, target);
}

/** Picks `count` distinct items of `from` at random (a partial Fisher-Yates shuffle). */
export function pickAtRandom<T>(from: readonly T[], count: number, random: PickRandom = randomInt): T[] {
  const pool = [...from];
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i += 1) {
    const j = i + random(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}

export interface SamplingDeps {
  /** The caller's transaction: picks commit with the wipe result or the close that caused them. */
  db: SqlRunner;
  store: ValidationStore;
  now: string;
  random?: PickRandom;
}

/** The account's rate, or the default. */
export async function validationRateOf(store: ValidationStore, db: SqlRunner, accountId: number): Promise<number> {
  return (await store.findValidationRate(db, accountId)) ?? DEFAULT_VALIDATION_RATE_PERCENT;
}

/** Tops a lot's picks up to its target, choosing at random among its certified wipes not picked yet. */
export async function topUpLot(deps: SamplingDeps, lot: ValidationDb.LotRow): Promise<number> {
  const { certified, picked } = await deps.store.countLot(deps.db, lot.id);
  const missing = sampleTarget(certified, lot.rate_percent, lot.closed_at !== null) - picked;
  if (missing <= 0) return 0;
  const chosen = pickAtRandom(await deps.store.unpickedWipes(deps.db, lot.id), missing, deps.random);
  await deps.store.insertSamples(deps.db, lot.id, chosen, deps.now);
  return chosen.length;
}

/**
 * A certified wipe arrived: its token's lot (if it has one) is made or refreshed and its sample
 * topped up, in the wipe result's own transaction.
 */
export async function sampleOnCertifiedWipe(deps: SamplingDeps, wipe: { accountId: number; tokenId: number }): Promise<void> {
  const lot = await deps.store.findTokenLot(deps.db, wipe.tokenId);
  if (!lot) return;
  const row = await deps.store.touchLot(deps.db, {
    accountId: wipe.accountId,
    customer: lot.customer,
    lotReference: lot.lot_reference,
    ratePercent: await validationRateOf(deps.store, deps.db, wipe.accountId),
    now: deps.now,
  });
  await topUpLot(deps, row);
}

/**
 * An admin closes a lot: its rate is frozen at the account's current one and its sample topped
 * up to the rate rounded up (at least one drive). Closing a closed lot changes nothing.
 */
export async function closeValidationLot(
  deps: SamplingDeps,
  accountId: number,
  lotPublicId: string,
): Promise<{ ok: true; picked: number } | { ok: false; status: 404 | 409; error: string }> {
  const lot = await deps.store.findLot(deps.db, accountId, lotPublicId);
  if (!lot) return { ok: false, status: 404, error: 'no such lot in this account' };
  const rate = await validationRateOf(deps.store, deps.db, accountId);
  if (!(await deps.store.closeLot(deps.db, lot.id, rate, deps.now))) return { ok: false, status: 409, error: 'this lot is closed already' };
  return { ok: true, picked: await topUpLot(deps, { ...lot, rate_percent: rate, closed_at: deps.now }) };
}
