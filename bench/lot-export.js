// Lot certificate of many drives (issue 31 item 2), against the built cloud (cloud/dist; run `npx tsc -b`).
//
//   node bench/lot-export.js [--drives 600]
//
// Prints, in the same run on the same files: the time to generate the drives' single certificates
// (claim, sign, render both PDFs, store: the certificate job, rendering on this thread) as the
// anchor, then the background lot export of all of them as one signed lot certificate (read each
// certificate from the store, build the summary pages, attach, sign once, store), and the ZIP of
// their certificates and reports, and `verify-pdf` of the lot certificate (every attached
// certificate checked: PDF signature, signed record, its page regenerated and compared, its text).
// Goal: lot PDF <= 0.5x the single certificates' time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { benchAccount, certifiedDrives, loadCloud, runLotExport } from './cloud-seed.js';

const { SqliteDatabase } = await loadCloud('adapters/sql/sqlite.js');
const { localObjectStore } = await loadCloud('adapters/objects/local-store.js');
const { loadCertificateKeys } = await loadCloud('adapters/certificate-keys.js');
const { verifyPdf } = await loadCloud('cli/certificates.js');

const { values } = parseArgs({ options: { drives: { type: 'string', default: '600' } } });
const DRIVES = Number(values.drives);
const round = (n) => Math.round(n * 10) / 10;

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-lot-'));
try {
  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const keys = await loadCertificateKeys({ db, dataDir: dir });
  const store = localObjectStore(join(dir, 'objects'));
  const { account, token } = await benchAccount(db);
  // The anchor: the single certificates, generated as the worker does on one thread.
  const { fonts, seconds: singles, ids } = await certifiedDrives({ db, keys, store, account, token, drives: DRIVES });
  const lot = { db, keys, store, fonts, accountId: account.id, wipeIds: ids };
  const pdf = await runLotExport({ ...lot, format: 'pdf', publicId: 'lotexp_00000000000000000001' });
  const zip = await runLotExport({ ...lot, format: 'zip', publicId: 'lotexp_00000000000000000002' });

  const lotFile = join(dir, 'lot.pdf');
  writeFileSync(lotFile, pdf.bytes);
  const v0 = performance.now();
  const verdict = await verifyPdf(lotFile, {}, (check) => check({ publicKeys: keys.publicKeys, pdfCertificateOnRecord: keys.pdfCertificateOnRecord }));
  const verifySeconds = (performance.now() - v0) / 1000;
  if (!verdict.valid || verdict.certificates.length !== DRIVES) throw new Error(`the lot did not verify: ${verdict.reason}`);
  await db.close();

  const ratio = pdf.seconds / singles;
  console.log(
    `lot export: ${DRIVES} single certificates generated ${round(singles)} s (anchor) | lot certificate (PDF, ${round(pdf.bytes.length / 1e6)} MB) ${round(pdf.seconds)} s = ` +
      `${Math.round(ratio * 100) / 100}x | lot ZIP (${round(zip.bytes.length / 1e6)} MB) ${round(zip.seconds)} s | ` +
      `verify-pdf of the lot ${round(verifySeconds)} s = ${Math.round((verifySeconds / singles) * 100) / 100}x | goal lot PDF <= 0.5x: ${ratio <= 0.5 ? 'OK' : 'BELOW GOAL'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
