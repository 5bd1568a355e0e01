// Shared by the benchmarks that drive the built cloud (cloud/dist; run `npx tsc -b`): its modules,
// an account with an engine token, a cloud app taking signed internal calls, a drive's wipe
// record, the certificate job's ports, certified drives and a lot export of them. Each benchmark
// keeps its own figures.
import { readFileSync } from 'node:fs';
import { signServiceRequest } from '@erasure/shared';

const dist = new URL('../cloud/dist/', import.meta.url);
/** A module of the built cloud, by its path under cloud/dist. */
export const loadCloud = (path) => import(new URL(path, dist).href);

const { createAccount } = await loadCloud('adapters/db/accounts.js');
const { createToken, recordCheckin } = await loadCloud('adapters/db/tokens.js');
const { storeWipeResult } = await loadCloud('adapters/db/wipe-results.js');
const { buildCloudApp } = await loadCloud('http/app.js');
const { systemClock } = await loadCloud('adapters/clock.js');
const { retryDelayMs } = await loadCloud('jobs/generate-certificate.js');
const { DEBIAN_FONT_FILES, loadFontSource } = await loadCloud('domain/certificates/index.js');
const { drainCertificateJobs } = await loadCloud('jobs/certificate-worker.js');
const { inProcessRenderer } = await loadCloud('jobs/renderer.js');
const { wipeGridReaderOnce } = await loadCloud('adapters/db/wipes-grid.js');
const { createLotExport } = await loadCloud('adapters/db/lot-exports.js');
const { drainLotExportJobs, LOT_EXPORT_WORKER_DEFAULTS } = await loadCloud('jobs/lot-export-worker.js');

export const PUBLIC_BASE_URL = 'https://erasure.example';

/** An active account and an unlimited engine token of it, minted for `userEmail`. */
export async function benchAccount(db, userEmail = 'bench@example.com') {
  const now = new Date().toISOString();
  const account = await createAccount(db, { name: 'Bench Recyclers Ltd', subscriptionStatus: 'active', now });
  const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail, expiresAt: null, now });
  return { account, token };
}

/**
 * Signs internal calls as the gateway does. The cloud accepts a signature once (issue 28 item 6),
 * so a repeat of the same bytes (a check-in body) takes the next second.
 */
export function onceSigner(secret) {
  const signed = new Set();
  return (text) => {
    let timestamp = Math.floor(Date.now() / 1000);
    while (signed.has(`${timestamp}.${text}`)) timestamp += 1;
    signed.add(`${timestamp}.${text}`);
    return signServiceRequest(secret, text, timestamp);
  };
}

/** The cloud app on loopback, and `post(path, body)` for its signed internal routes (throws on >= 300). */
export async function startInternalApp({ db, keys, store, secret }) {
  const app = buildCloudApp({
    db,
    clock: systemClock,
    internalApiSecret: secret,
    publicBaseUrl: PUBLIC_BASE_URL,
    certificates: { store, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const sign = onceSigner(secret);
  const post = async (path, body) => {
    const text = JSON.stringify(body);
    const res = await fetch(base + path, { method: 'POST', body: text, headers: { ...sign(text), 'content-type': 'application/json' } });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { app, base, post };
}

/** A passing NVMe crypto erase of one drive, as the agent reports it (without `jti`). */
export const wipeRecord = (jobId, serial) => ({
  job_id: jobId,
  drive_serial: serial,
  drive_model: 'SAMSUNG MZVLB512HAJQ',
  drive_capacity_gb: 512,
  wipe_method: 'NIST 800-88 R2 Purge',
  passes_completed: null,
  started_at: '2026-11-22T10:00:00Z',
  completed_at: '2026-11-22T10:12:30Z',
  verification_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  technique: 'NVMe Sanitize, crypto erase',
  tool_components: 'nvme-cli 2.8',
  verification_result: 'Passed',
});

/**
 * `drives` passing wipe results stored straight into the database, a check-in per 200 (one engine
 * check-in certifies up to 256 drives): their certificate jobs are due.
 */
export async function storeCheckedInWipes(db, { account, token, drives }) {
  const now = new Date().toISOString();
  for (let i = 0; i < drives; i++) {
    const run = `run${Math.floor(i / 200)}`;
    if (i % 200 === 0) await recordCheckin(db, run, token, now);
    const record = wipeRecord(`${run}-${i % 200}`, `S4DYNX0M${String(i).padStart(6, '0')}`);
    await db.transaction((tx) => storeWipeResult(tx, { accountId: account.id, tokenId: token.id, record, ownReason: null, issuedJobId: run, notIssuedReason: 'not issued', now }));
  }
}

/**
 * One machine's asset with `serials` drives, then a check-in per 100 results: `wipe(i)` is the
 * i-th result's body for POST /internal/wipe_results, under a real check-in (only those are certified).
 */
export async function seedMachine(post, token, { serials, results }) {
  await post('/internal/assets', {
    jti: token.jti,
    record_id: 'CW-20261122-100000',
    engine_version: '1.4.2',
    fingerprint: {
      system: { manufacturer: 'LENOVO', product: '20L5CTO1WW', serial: 'PF1ABCDE', uuid: '4c4c4544-0042-3510-8052-b4c04f565032' },
      storage: serials.map((serial) => ({ model: 'SAMSUNG MZVLB512HAJQ', serial, size_bytes: 512110190592, media_type: 'SSD', smart: { power_on_hours: 8123 } })),
    },
  });
  const runs = [];
  for (let r = 0; r * 100 < results; r++) runs.push((await post('/internal/tokens/validate', { jti: token.jti })).job_id);
  return (i) => ({ jti: token.jti, ...wipeRecord(`${runs[Math.floor(i / 100)]}-${i % 100}`, serials[i % serials.length]) });
}

/** The certificate job's ports as the worker of `serve` has them; `store` and `renderer` are the bench's. */
export const certificateJobDeps = ({ db, keys, store, renderer }) => ({
  db,
  clock: systemClock,
  store,
  renderer,
  signing: keys.signing,
  pdfSigning: keys.pdfSigning,
  publicBaseUrl: PUBLIC_BASE_URL,
  leaseMs: 60_000,
  maxAttempts: 5,
  retryDelayMs: (n) => retryDelayMs(n),
});

/**
 * `drives` certified drives of `account`: their wipe results stored, then their certificates made
 * by the certificate job on this thread, both PDFs into `store`. `seconds`: how long the job took;
 * `ids`: the wipe results' public ids, in order; `fonts`: the fonts the PDFs were drawn with.
 */
export async function certifiedDrives({ db, keys, store, account, token, drives }) {
  await storeCheckedInWipes(db, { account, token, drives });
  const fonts = loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => new Uint8Array(readFileSync(path)) });
  const t0 = performance.now();
  const generated = await drainCertificateJobs(certificateJobDeps({ db, keys, store, renderer: inProcessRenderer(fonts) }));
  const seconds = (performance.now() - t0) / 1000;
  if (generated !== drives) throw new Error(`expected ${drives} certificates, generated ${generated}`);
  const ids = (await db.many('SELECT public_id FROM wipe_results ORDER BY id')).map((r) => r.public_id);
  return { fonts, seconds, ids };
}

/** One lot export (`format` pdf or zip) of `wipeIds`, made by the lot export job into `store`: its time and bytes. */
export async function runLotExport({ db, keys, store, fonts, accountId, wipeIds, format, publicId }) {
  await db.transaction((tx) => createLotExport(tx, { publicId, accountId, format, wipeIds, now: new Date().toISOString() }));
  const deps = { ...LOT_EXPORT_WORKER_DEFAULTS, db, clock: systemClock, store, wipeGrid: wipeGridReaderOnce(db), fonts: () => fonts, pdfSigning: () => keys.pdfSigning(), publicBaseUrl: PUBLIC_BASE_URL };
  const start = performance.now();
  if ((await drainLotExportJobs(deps)) !== 1) throw new Error('expected one lot export');
  const seconds = (performance.now() - start) / 1000;
  const row = await db.one('SELECT status, object_key FROM lot_exports WHERE public_id = @publicId', { publicId });
  if (row.status !== 'done') throw new Error(`lot export ${format} ended ${row.status}`);
  return { seconds, bytes: await store.get(row.object_key) };
}

/**
 * Certificate jobs held back ("parked") until a batch is let go: the bench times one batch at a
 * time while the rest of the ingested results wait.
 */
export function parkedJobs(db) {
  const PARKED = '9999-01-01T00:00:00.000Z';
  return {
    parkAll: () => db.run(`UPDATE jobs SET run_at = @parked`, { parked: PARKED }),
    unpark: (count) =>
      db.run(`UPDATE jobs SET run_at = @now WHERE id IN (SELECT id FROM jobs WHERE run_at = @parked ORDER BY id LIMIT @count)`, {
        now: new Date().toISOString(),
        parked: PARKED,
        count,
      }),
    completed: async () => (await db.one(`SELECT count(*) AS n FROM certificates WHERE status = 'complete'`)).n,
  };
}
