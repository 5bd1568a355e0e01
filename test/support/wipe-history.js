// A year of wipe history in one account, written straight into the store (issue 31's tests and
// bench/wipes-grid.js). Going through the internal API costs two signed requests and a check-in
// per wipe, minutes for 100,000 of them; the rows written here are the rows that API stores
// (same columns, same forms: ISO timestamps with zones, wire statuses and methods), in batches.

export const MODELS = ['SAMSUNG MZVLB512HAJQ', 'ST1000DM003-1CH162', 'WDC WD20EZRZ-00Z5HB0', 'TOSHIBA MQ01ABD100', 'INTEL SSDSC2KB480G8', 'Micron 2450 NVMe'];
export const METHODS = ['NIST 800-88 R2 Purge', 'NIST 800-88 R2 Clear', 'ATA Secure Erase'];
const ZONES = ['Z', '+01:00', '-05:00'];
const START = Date.UTC(2025, 0, 1);
/** Minutes between two wipes: 100,000 wipes span about a year. */
const SPACING_MS = 5 * 60_000;

/** The deterministic content of wipe `i` (0 = oldest). */
export function historyWipe(i) {
  const completedMs = START + i * SPACING_MS;
  const zone = ZONES[i % ZONES.length];
  const shift = zone === 'Z' ? 0 : zone === '+01:00' ? 60 : -300;
  // The wire carries local time with its zone; the instant is the same whatever the zone.
  const local = (ms) => `${new Date(ms + shift * 60_000).toISOString().slice(0, 19)}${zone}`;
  const status = i % 14 === 0 ? 'failed' : i % 31 === 0 ? 'cancelled' : 'completed';
  return {
    job_id: `hist-${i}-0`,
    drive_serial: `SN-${String(i).padStart(6, '0')}`,
    drive_model: MODELS[i % MODELS.length],
    drive_capacity_gb: [256, 512, 1000, 2000, 4000][(i * 7) % 5],
    wipe_method: METHODS[(i * 3 + (i >> 4)) % METHODS.length],
    started_at: local(completedMs - (10 + (i % 50)) * 60_000),
    // One in 97 never completed (a pulled drive).
    completed_at: i % 97 === 0 ? null : local(completedMs),
    wipe_status: status,
    certifiable: status === 'completed' ? 1 : 0,
    created_at: new Date(completedMs + 1000).toISOString(),
  };
}

const COLUMNS = [
  'public_id', 'account_id', 'token_id', 'job_id', 'drive_serial', 'drive_model', 'drive_capacity_gb', 'wipe_method',
  'started_at', 'completed_at', 'wipe_status', 'certifiable', 'certificate_status', 'created_at', 'updated_at',
];

/** Rows per INSERT: named parameters are looked up one by one, so a statement stays small. */
const ROWS = 50;
/** INSERTs per transaction. */
const STATEMENTS = 20;

/** One multi-row INSERT of `n` rows, its parameters named by position in the statement (so the text repeats). */
const insertWipes = (n) =>
  `INSERT INTO wipe_results (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: n }, (_, k) => `(${COLUMNS.map((column) => `@${column}_${k}`).join(', ')})`).join(', ')}`;

/**
 * Writes `count` wipes of `accountId`, token `tokenIds[i % n]` for wipe i, 50 rows per statement,
 * 1,000 per transaction. Every tenth certified wipe gets its certificate row, numbered CW-<i>.
 * @param {{ dialect: 'sqlite' | 'postgres', transaction: (work: (tx: { run: (sql: string, params?: object) => Promise<number> }) => Promise<unknown>) => Promise<unknown> }} db
 * @param {{ accountId: number, tokenIds: number[], count: number, publicIdPrefix?: string }} options
 */
export async function seedWipeHistory(db, { accountId, tokenIds, count, publicIdPrefix = 'wr_hist' }) {
  for (let from = 0; from < count; from += ROWS * STATEMENTS) {
    await db.transaction(async (tx) => {
      for (let at = from; at < Math.min(count, from + ROWS * STATEMENTS); at += ROWS) {
        const to = Math.min(count, at + ROWS);
        const params = {};
        const certified = [];
        for (let i = at; i < to; i++) {
          const wipe = historyWipe(i);
          const values = {
            public_id: `${publicIdPrefix}${i}`,
            account_id: accountId,
            token_id: tokenIds[i % tokenIds.length],
            ...wipe,
            certificate_status: wipe.certifiable ? 'complete' : null,
            updated_at: wipe.created_at,
          };
          for (const column of COLUMNS) params[`${column}_${i - at}`] = values[column];
          if (wipe.certifiable && i % 10 === 0) certified.push(i);
        }
        await tx.run(insertWipes(to - at), params);
        for (const i of certified) {
          await tx.run(
            `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number, status, created_at, updated_at)
             SELECT @public_id, account_id, id, @sequence, @number, 'complete', created_at, created_at FROM wipe_results WHERE public_id = @wipe`,
            { public_id: `cert_${publicIdPrefix}${i}`, sequence: i + 1, number: `CW-${String(i).padStart(6, '0')}`, wipe: `${publicIdPrefix}${i}` },
          );
        }
      }
    });
  }
}
