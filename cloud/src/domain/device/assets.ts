import {
  ERRORS,
  Fingerprint,
  TestSnapshot,
  conforms,
  hardwareUid,
  parseUnknown,
  type Fingerprint as FingerprintDoc,
} from '@erasure/shared';
import { isoNow } from '../clock.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { promoteColumns } from '../assets/promote.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';

type Body = Record<string, unknown>;

const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The boot report a body carries, or the spec's 422 when record_id or fingerprint is missing. */
export function readBootReport(
  body: Body,
): { ok: true; recordId: string; engineVersion: string | null; fingerprint: FingerprintDoc } | Refusal {
  if (!nonBlank(body.record_id) || typeof body.fingerprint !== 'object' || body.fingerprint === null || Array.isArray(body.fingerprint)) {
    return refuse(422, ERRORS.missingRecordOrFingerprint);
  }
  if (body.record_id.length > 64) return refuse(422, 'invalid record_id: at most 64 characters');
  const fingerprint = parseUnknown(Fingerprint, body.fingerprint);
  if (!fingerprint.ok) return refuse(422, `invalid fingerprint at ${fingerprint.path}: ${fingerprint.message}`);
  if (body.engine_version !== undefined && (typeof body.engine_version !== 'string' || body.engine_version.length > 64)) {
    return refuse(422, 'invalid engine_version: a string of at most 64 characters');
  }
  return { ok: true, recordId: body.record_id, engineVersion: body.engine_version ?? null, fingerprint: fingerprint.value };
}

/**
 * Creates or refreshes the machine's asset (spec 4.2 rule 2). The first sighting records the
 * reporter (token and its user, the technician) and `first_seen_at`; later boots refresh the rest.
 */
export async function recordBoot(
  deps: DeviceDeps,
  token: TokenRow,
  report: { recordId: string; engineVersion: string | null; fingerprint: FingerprintDoc },
): Promise<{ assetId: number; assetPublicId: string; firstBoot: boolean }> {
  const asset = await deps.store.upsertAsset(deps.db, {
    accountId: token.account_id,
    hardwareUid: hardwareUid(report.fingerprint.system, report.recordId),
    recordId: report.recordId,
    engineVersion: report.engineVersion,
    fingerprint: report.fingerprint,
    promoted: promoteColumns(report.fingerprint),
    tokenId: token.id,
    technician: token.user_name,
    now: isoNow(deps.clock),
  });
  return { assetId: asset.id, assetPublicId: asset.public_id, firstBoot: asset.firstBoot };
}

/**
 * `POST /internal/assets`: {@link recordBoot} plus `asset_reported` on a machine's first boot
 * only (spec 4.2 rule 2), in the call's transaction. Chassis saves record their asset without the event.
 */
export async function reportBoot(
  deps: DeviceDeps,
  token: TokenRow,
  report: { recordId: string; engineVersion: string | null; fingerprint: FingerprintDoc },
): Promise<{ assetId: number; assetPublicId: string; firstBoot: boolean }> {
  const asset = await recordBoot(deps, token, report);
  if (asset.firstBoot) await deps.events?.emit(deps.db, { type: 'asset_reported', token, assetId: asset.assetId });
  return asset;
}

/** The boot's asset must have landed before notes or tests attach to it (spec 4.1 rule 4). */
async function bootAsset(deps: DeviceDeps, token: TokenRow, recordId: unknown): Promise<{ id: number; public_id: string } | Refusal> {
  if (!nonBlank(recordId)) return refuse(404, ERRORS.unknownAsset);
  return (await deps.store.findAssetByRecord(deps.db, token.account_id, recordId)) ?? refuse(404, ERRORS.unknownAsset);
}

/** Notes replace the asset's notes; they fire no webhook. */
export async function saveNotes(deps: DeviceDeps, token: TokenRow, body: Body): Promise<{ ok: true; assetId: string } | Refusal> {
  if (typeof body.notes !== 'string') return refuse(422, 'invalid notes: a string is required');
  if (body.notes.length > 20_000) return refuse(422, 'invalid notes: at most 20000 characters');
  const asset = await bootAsset(deps, token, body.record_id);
  if ('ok' in asset) return asset;
  await deps.store.setAssetNotes(deps.db, asset.id, body.notes, isoNow(deps.clock));
  return { ok: true, assetId: asset.public_id };
}

/**
 * A full test snapshot replaces the previous one; unknown wire ids or statuses are `invalid tests`.
 * The snapshot and `hardware_tests_completed` commit together, in the call's transaction.
 */
export async function saveTests(deps: DeviceDeps, token: TokenRow, body: Body): Promise<{ ok: true; assetId: string } | Refusal> {
  if (!conforms(TestSnapshot, body.tests)) return refuse(422, ERRORS.invalidTests);
  const asset = await bootAsset(deps, token, body.record_id);
  if ('ok' in asset) return asset;
  await deps.store.setAssetTests(deps.db, asset.id, body.record_id as string, body.tests, isoNow(deps.clock));
  await deps.events?.emit(deps.db, { type: 'hardware_tests_completed', token, assetId: asset.id });
  return { ok: true, assetId: asset.public_id };
}
