import type { Fingerprint, TestSnapshot, WipeResultRecord } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';
import { TOKEN_USER_NAME_SQL } from './tokens.js';
import type { CertificateMachine } from '../../domain/certificates/build-content.js';

/** The stored wipe result a certificate is built from, in the wire shape plus its ids. */
export interface WipeResultSource {
  id: number;
  public_id: string;
  account_id: number;
  record: WipeResultRecord;
}

/** The machine the erased drive was found in, in the shape the certificate builder takes. */
export type SourceMachine = CertificateMachine;

/** Everything the certificate job reads besides the certificate row itself. */
export interface CertificateSources {
  wipe: WipeResultSource;
  accountName: string;
  /** The reporting token's user: their name, else their email (spec 1: the operator on wipe reports). */
  operator: string | null;
  /** Customer and lot / job reference typed at the kiosk (issue 31 item 6), else the reporting token's (issue 23). */
  customer: string | null;
  lotReference: string | null;
  /** The asset tag typed at the kiosk (issue 31), never the token's. */
  assetTag: string | null;
  machine: SourceMachine | null;
  /** The language the reporting token names, else its account's (issue 31 item 7 part B); unchecked until fixed on the certificate. */
  language: string;
}

const RECORD_FIELDS = [
  'drive_serial', 'drive_model', 'drive_capacity_gb', 'wipe_method', 'passes_completed', 'started_at',
  'completed_at', 'verification_hash', 'wipe_status', 'technique', 'validation', 'disposition',
  'markings_removed', 'tool_components', 'verification_result',
] as const;

const READ_WIPE_RESULT = `SELECT id, public_id, account_id, job_id, ${RECORD_FIELDS.join(', ')}, health_json FROM wipe_results WHERE id = @id`;

/** A stored wipe result by row id, NULL columns dropped so it reads like the body the device sent. */
export async function readWipeResultSource(db: SqlRunner, wipeResultId: number): Promise<WipeResultSource | undefined> {
  const row = await db.one<Record<string, unknown>>(READ_WIPE_RESULT, { id: wipeResultId });
  if (!row) return undefined;
  const record: Record<string, unknown> = { job_id: row.job_id };
  for (const field of RECORD_FIELDS) {
    const value = row[field];
    // passes_completed keeps an explicit null: it means "firmware erase, no passes" (spec 2).
    if (value === null && field !== 'passes_completed') continue;
    record[field] = field === 'markings_removed' && value !== null ? value === 1 : value;
  }
  // Issue 30 item 6: the health grade beside the spec fields, for the Erasure Report (never signed).
  const health = parseJson(row.health_json as string | null);
  if (health) record.health = health;
  return {
    id: row.id as number,
    public_id: row.public_id as string,
    account_id: row.account_id as number,
    record: record as WipeResultRecord,
  };
}

// LIKE needs its wildcards escaped: a serial is data, never a pattern.
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Reads the inputs of one certificate. The source machine is the account's most recently
 * booted asset whose `storage_serials` list ("A, B, C") names the drive; none for hotswap
 * drives or drives never reported. LIKE rather than a SQLite string function keeps it portable;
 * both sides lowered, since SQLite's LIKE ignores ASCII case and PostgreSQL's does not.
 */
export async function readCertificateSources(db: SqlRunner, wipeResultId: number): Promise<CertificateSources | undefined> {
  const wipe = await readWipeResultSource(db, wipeResultId);
  if (!wipe) return undefined;
  const owner = (await db.one<{ account_name: string; user_email: string | null; customer: string | null; lot_reference: string | null; asset_tag: string | null; language: string }>(
    `SELECT a.name AS account_name, ${TOKEN_USER_NAME_SQL} AS user_email,
            COALESCE(w.customer, t.customer) AS customer, COALESCE(w.lot_reference, t.lot_reference) AS lot_reference,
            w.asset_tag AS asset_tag, COALESCE(t.certificate_language, a.certificate_language) AS language FROM wipe_results w
       JOIN accounts a ON a.id = w.account_id JOIN license_tokens t ON t.id = w.token_id
      WHERE w.id = @id`,
    { id: wipeResultId },
  ))!;
  const serial = wipe.record.drive_serial?.trim();
  const asset = serial
    ? await db.one<Record<string, string | null>>(
        `SELECT public_id, manufacturer, model, serial_number, engine_version, fingerprint, test_results, notes
           FROM assets
          WHERE account_id = @account_id AND lower(', ' || storage_serials || ', ') LIKE lower(@pattern) ESCAPE '\\'
          ORDER BY last_booted_at DESC, id DESC LIMIT 1`,
        { account_id: wipe.account_id, pattern: `%, ${likeLiteral(serial)}, %` },
      )
    : undefined;
  return {
    wipe,
    accountName: owner.account_name,
    operator: owner.user_email,
    customer: owner.customer,
    lotReference: owner.lot_reference,
    assetTag: owner.asset_tag,
    language: owner.language,
    machine: asset
      ? {
          public_id: asset.public_id!,
          manufacturer: asset.manufacturer ?? null,
          model: asset.model ?? null,
          serial_number: asset.serial_number ?? null,
          engine_version: asset.engine_version ?? null,
          fingerprint: parseJson(asset.fingerprint) as Fingerprint | null,
          test_results: parseJson(asset.test_results) as TestSnapshot | null,
          notes: asset.notes ?? null,
        }
      : null,
  };
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null; // a damaged column prints as "not reported" rather than failing the certificate
  }
}
