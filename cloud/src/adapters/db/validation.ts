import { randomBytes } from 'node:crypto';
import type { SqlRunner } from '../sql/database.js';

/** A lot as sampling sees it (`validation_lots`). */
export interface LotRow {
  id: number;
  public_id: string;
  account_id: number;
  customer: string;
  lot_reference: string;
  rate_percent: number;
  closed_at: string | null;
  needs_attention: number;
}

/** A picked drive with what the Validation list shows of it. */
export interface SampleRow {
  lot_public_id: string;
  id: number;
  lot_id: number;
  wipe_result_id: number;
  wipe_public_id: string;
  drive_serial: string | null;
  drive_model: string | null;
  certificate_number: string | null;
  certificate_public_id: string | null;
  picked_at: string;
  outcome: 'approved' | 'rejected' | null;
  reason: string | null;
  findings: string | null;
  report_id: string | null;
  validated_at: string | null;
}

/** A lot with its counts, for the Validation list and the lot summaries. */
export interface LotSummaryRow extends LotRow {
  certified: number;
  picked: number;
  passed: number;
  failed: number;
}

/** The account's validation rate in percent, or undefined (the default applies). */
export async function findValidationRate(db: SqlRunner, accountId: number): Promise<number | undefined> {
  const row = await db.one<{ rate_percent: number }>('SELECT rate_percent FROM validation_settings WHERE account_id = @accountId', { accountId });
  return row?.rate_percent;
}

/** Creates or replaces the account's rate, recording which admin set it. */
export async function saveValidationRate(db: SqlRunner, input: { accountId: number; ratePercent: number; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO validation_settings (account_id, rate_percent, updated_by_user_id, created_at, updated_at)
     VALUES (@account, @rate, @user, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET rate_percent = excluded.rate_percent,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, rate: input.ratePercent, user: input.userId, now: input.now },
  );
}

/** The customer and lot a token's wipes belong to; no lot reference: none. */
export async function findTokenLot(db: SqlRunner, tokenId: number): Promise<{ customer: string; lot_reference: string } | undefined> {
  const row = await db.one<{ customer: string | null; lot_reference: string | null }>(
    'SELECT customer, lot_reference FROM license_tokens WHERE id = @tokenId',
    { tokenId },
  );
  return row?.lot_reference ? { customer: row.customer ?? '', lot_reference: row.lot_reference } : undefined;
}

const LOT_COLUMNS = 'id, public_id, account_id, customer, lot_reference, rate_percent, closed_at, needs_attention';

/**
 * The lot's row, made at its first certified wipe. The upsert always writes the row, which on
 * PostgreSQL locks it until the caller's transaction ends: two wipes of one lot arriving at once
 * pick one after the other, never both from the same count. An open lot takes the account's
 * current rate; a closed one keeps the rate it was closed with.
 */
export async function touchLot(
  db: SqlRunner,
  input: { accountId: number; customer: string; lotReference: string; ratePercent: number; now: string },
): Promise<LotRow> {
  return (await db.one<LotRow>(
    `INSERT INTO validation_lots (public_id, account_id, customer, lot_reference, rate_percent, created_at, updated_at)
     VALUES (@publicId, @account, @customer, @lot, @rate, @now, @now)
     ON CONFLICT (account_id, customer, lot_reference) DO UPDATE SET
       rate_percent = CASE WHEN validation_lots.closed_at IS NULL THEN excluded.rate_percent ELSE validation_lots.rate_percent END,
       updated_at = excluded.updated_at
     RETURNING ${LOT_COLUMNS}`,
    {
      publicId: `lot_${randomBytes(10).toString('hex')}`,
      account: input.accountId,
      customer: input.customer,
      lot: input.lotReference,
      rate: input.ratePercent,
      now: input.now,
    },
  ))!;
}

/** The lot by its public id, within one account only. */
export async function findLot(db: SqlRunner, accountId: number, publicId: string): Promise<LotRow | undefined> {
  return db.one<LotRow>(`SELECT ${LOT_COLUMNS} FROM validation_lots WHERE account_id = @accountId AND public_id = @publicId`, { accountId, publicId });
}

/** Closes an open lot at the account's current rate; false when it was closed already. */
export async function closeLot(db: SqlRunner, lotId: number, ratePercent: number, now: string): Promise<boolean> {
  const changed = await db.run(
    'UPDATE validation_lots SET closed_at = @now, rate_percent = @rate, updated_at = @now WHERE id = @lotId AND closed_at IS NULL',
    { lotId, rate: ratePercent, now },
  );
  return changed === 1;
}

// The certified wipes of a lot: its account's, from a token of its customer and lot.
const LOT_WIPES = `FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
  WHERE w.account_id = l.account_id AND COALESCE(t.customer, '') = l.customer AND t.lot_reference = l.lot_reference AND w.certifiable = 1`;

/** How many certified wipes the lot has, and how many of them were picked. */
export async function countLot(db: SqlRunner, lotId: number): Promise<{ certified: number; picked: number }> {
  const row = await db.one<{ certified: number; picked: number }>(
    `SELECT (SELECT COUNT(*) ${LOT_WIPES}) AS certified,
            (SELECT COUNT(*) FROM validation_samples s WHERE s.lot_id = l.id) AS picked
       FROM validation_lots l WHERE l.id = @lotId`,
    { lotId },
  );
  return { certified: Number(row?.certified ?? 0), picked: Number(row?.picked ?? 0) };
}

/** The lot's certified wipes not picked yet, by row id. */
export async function unpickedWipes(db: SqlRunner, lotId: number): Promise<number[]> {
  const rows = await db.many<{ id: number }>(
    `SELECT w.id FROM validation_lots l
       JOIN wipe_results w ON w.account_id = l.account_id AND w.certifiable = 1
       JOIN license_tokens t ON t.id = w.token_id AND COALESCE(t.customer, '') = l.customer AND t.lot_reference = l.lot_reference
      WHERE l.id = @lotId AND NOT EXISTS (SELECT 1 FROM validation_samples s WHERE s.wipe_result_id = w.id)
      ORDER BY w.id`,
    { lotId },
  );
  return rows.map((row) => Number(row.id));
}

/** Records picked drives; a drive already picked stays as it was. */
export async function insertSamples(db: SqlRunner, lotId: number, wipeResultIds: readonly number[], now: string): Promise<void> {
  for (const wipeResultId of wipeResultIds) {
    await db.run(
      `INSERT INTO validation_samples (lot_id, wipe_result_id, picked_at) VALUES (@lotId, @wipeResultId, @now)
       ON CONFLICT (wipe_result_id) DO NOTHING`,
      { lotId, wipeResultId, now },
    );
  }
}

const SAMPLE_SELECT = `SELECT l.public_id AS lot_public_id, s.id, s.lot_id, s.wipe_result_id, w.public_id AS wipe_public_id, w.drive_serial, w.drive_model,
       c.certificate_number, c.public_id AS certificate_public_id, s.picked_at, s.outcome, s.reason, s.findings,
       s.report_id, s.validated_at
  FROM validation_samples s JOIN wipe_results w ON w.id = s.wipe_result_id
  JOIN validation_lots l ON l.id = s.lot_id
  LEFT JOIN certificates c ON c.wipe_result_id = w.id`;

/** Every lot of the account with its counts, lots needing attention first, then newest. */
export async function listLots(db: SqlRunner, accountId: number): Promise<LotSummaryRow[]> {
  const rows = await db.many<LotSummaryRow>(
    `SELECT ${LOT_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')},
            (SELECT COUNT(*) ${LOT_WIPES}) AS certified,
            (SELECT COUNT(*) FROM validation_samples s WHERE s.lot_id = l.id) AS picked,
            (SELECT COUNT(*) FROM validation_samples s WHERE s.lot_id = l.id AND s.outcome = 'approved') AS passed,
            (SELECT COUNT(*) FROM validation_samples s WHERE s.lot_id = l.id AND s.outcome = 'rejected') AS failed
       FROM validation_lots l WHERE l.account_id = @accountId
      ORDER BY l.needs_attention DESC, l.created_at DESC, l.id DESC`,
    { accountId },
  );
  return rows.map((row) => ({
    ...row,
    certified: Number(row.certified),
    picked: Number(row.picked),
    passed: Number(row.passed),
    failed: Number(row.failed),
  }));
}

/** The picked drives of the account's lots, oldest pick first within a lot. */
export async function listSamples(db: SqlRunner, accountId: number): Promise<SampleRow[]> {
  return db.many<SampleRow>(`${SAMPLE_SELECT} WHERE l.account_id = @accountId ORDER BY s.lot_id, s.id`, { accountId });
}

/** The picked drive behind a certificate number of the account, when its serial matches. */
export async function findCertifiedWipe(
  db: SqlRunner,
  accountId: number,
  certificateNumber: string,
): Promise<{ wipe_result_id: number; drive_serial: string | null; disposition: string | null; certificate_public_id: string } | undefined> {
  return db.one(
    `SELECT w.id AS wipe_result_id, w.drive_serial, w.disposition, c.public_id AS certificate_public_id
       FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id
      WHERE c.account_id = @accountId AND c.certificate_number = @certificateNumber`,
    { accountId, certificateNumber },
  );
}

/** The sample row of a wipe result, if it was picked. */
export async function findSampleOfWipe(db: SqlRunner, wipeResultId: number): Promise<SampleRow | undefined> {
  return db.one<SampleRow>(`${SAMPLE_SELECT} WHERE s.wipe_result_id = @wipeResultId`, { wipeResultId });
}

/**
 * Records a validation's outcome once: false when the sample already has one (another report
 * got there first). A rejection also puts the wipe result under review and flags its lot.
 */
export async function recordValidation(
  db: SqlRunner,
  input: {
    sampleId: number;
    wipeResultId: number;
    lotId: number;
    outcome: 'approved' | 'rejected';
    reason: string | null;
    findings: string | null;
    reportId: string;
    dispositionBefore: string | null;
    tokenId: number;
    now: string;
  },
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE validation_samples SET outcome = @outcome, reason = @reason, findings = @findings, report_id = @reportId,
            disposition_before = @dispositionBefore, validated_at = @now, validated_token_id = @tokenId
      WHERE id = @sampleId AND outcome IS NULL`,
    { ...input },
  );
  if (changed !== 1) return false;
  if (input.outcome === 'approved') {
    await db.run("UPDATE wipe_results SET validation = 'approved', updated_at = @now WHERE id = @wipeResultId", input);
  } else {
    await db.run("UPDATE wipe_results SET validation = 'rejected', disposition = 'review', updated_at = @now WHERE id = @wipeResultId", input);
    await db.run('UPDATE validation_lots SET needs_attention = 1, updated_at = @now WHERE id = @lotId', input);
  }
  return true;
}

/** A rejected validation of a wipe result, for the verify answer; undefined when none. */
export async function findRejection(db: SqlRunner, wipeResultId: number): Promise<{ reason: string | null; validated_at: string; disposition_before: string | null } | undefined> {
  return db.one(
    "SELECT reason, validated_at, disposition_before FROM validation_samples WHERE wipe_result_id = @wipeResultId AND outcome = 'rejected'",
    { wipeResultId },
  );
}

/** The lots of the given wipe results (their public ids), with counts: the merged PDF's summary. */
export async function lotsOfWipes(db: SqlRunner, accountId: number, wipePublicIds: readonly string[]): Promise<LotSummaryRow[]> {
  if (wipePublicIds.length === 0) return [];
  const lots = await listLots(db, accountId);
  const named = new Set(
    (
      await db.many<{ customer: string | null; lot_reference: string | null }>(
        `SELECT DISTINCT t.customer, t.lot_reference FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id
          WHERE w.account_id = @accountId AND w.public_id IN (${wipePublicIds.map((_, i) => `@w${i}`).join(', ')})`,
        { accountId, ...Object.fromEntries(wipePublicIds.map((id, i) => [`w${i}`, id])) },
      )
    ).map((row) => `${row.customer ?? ''}\u0000${row.lot_reference ?? ''}`),
  );
  return lots.filter((lot) => named.has(`${lot.customer}\u0000${lot.lot_reference}`));
}

/**
 * The latest certified wipe of a drive serial in the account (the one a validation checks), with
 * its certificate and, if it was picked, its sample's lot and outcome. Undefined when the
 * account has no certified wipe of that serial.
 */
/** A drive's latest certified wipe in an account, and whether a lot's validation sample holds it. */
export interface LatestCertifiedWipe {
  wipe_result_id: number;
  wipe_method: string | null;
  technique: string | null;
  certificate_number: string | null;
  lot_public_id: string | null;
  sampled: number;
  outcome: 'approved' | 'rejected' | null;
}

export async function findLatestCertifiedWipeBySerial(
  db: SqlRunner,
  accountId: number,
  driveSerial: string,
): Promise<LatestCertifiedWipe | undefined> {
  const row = await db.one<LatestCertifiedWipe>(
    `SELECT w.id AS wipe_result_id, w.wipe_method, w.technique, c.certificate_number, l.public_id AS lot_public_id,
            CASE WHEN s.id IS NULL THEN 0 ELSE 1 END AS sampled, s.outcome
       FROM wipe_results w
       LEFT JOIN certificates c ON c.wipe_result_id = w.id
       LEFT JOIN validation_samples s ON s.wipe_result_id = w.id
       LEFT JOIN validation_lots l ON l.id = s.lot_id
      WHERE w.account_id = @accountId AND w.certifiable = 1 AND TRIM(w.drive_serial) = @driveSerial
      ORDER BY w.id DESC LIMIT 1`,
    { accountId, driveSerial },
  );
  return row && { ...row, sampled: Number(row.sampled) };
}
