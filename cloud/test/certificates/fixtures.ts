import { generateSelfSignedPdfSigner, type PdfSigner } from '../../src/domain/certificates/pdf-signing-certificate.js';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CERTIFICATE_SCHEMA, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { VALIDATION_AT_ISSUE } from '../../src/domain/certificates/rev2-record.js';
import { DEBIAN_FONT_FILES, loadFontSource, type FontSource } from '../../src/domain/certificates/fonts.js';
import type { ErasureReportData } from '../../src/domain/certificates/report-data.js';

/** Fonts from the Debian packages the renderer documents; parsed once per test file. */
let fonts: FontSource | undefined;
export function testFonts(): FontSource {
  fonts ??= loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => new Uint8Array(readFileSync(path)) });
  return fonts;
}

export function testKeys() {
  return generateKeyPairSync('ed25519');
}

/** Operator name in Japanese, Arabic and Cyrillic: the renderer must print every script. */
export const MIXED_OPERATOR = '山田 太郎 · محمد علي · Иван Петров';
export const MIXED_ACCOUNT = 'Ωmega Recyclers Κ.Ε. / 東京リサイクル株式会社 / شركة التدوير';

/** What the engine records for an NVMe crypto erase (tool_components and the marker clause of verification_result). */
export const SAMPLE_COMPONENTS =
  'erasure-agent 1.4.2; image erasure 1.4.2 (built 2026-11-20); hdparm v9.65; nvme-cli 2.4 (libnvme 1.3); sg3_utils (sg_sanitize 1.19 20220608); kernel 6.1.0-27-amd64; ' +
  'test patterns: direct-I/O write and read-back of 256 random blocks before the firmware erase, read again after it; nvme sanitize /dev/nvme0n1 --sanact=4; nvme sanitize-log /dev/nvme0n1 -o json';
export const SAMPLE_MARKERS = '256 of 256 test patterns written before the erase were gone after it (all read back as unrelated data, as a cryptographic erase leaves them)';

export function sampleContent(overrides: Partial<CertificateContent> = {}): CertificateContent {
  return {
    schema: CERTIFICATE_SCHEMA,
    certificate_id: 'cert_4k2m9x0q7w1e5r8t3y6u',
    certificate_number: 'CW-000042',
    wipe_result_id: 'wr_8h3j5k7l9z1x2c4v6b0n',
    account_name: MIXED_ACCOUNT,
    drive: {
      manufacturer: 'Samsung',
      model: 'SAMSUNG MZVLB512HBJQ-000L7',
      serial: 'S4ENNX0N123456',
      capacity_gb: 512,
      media_type: 'NVMe SSD',
    },
    wipe: {
      method: 'NIST 800-88 R2 Purge',
      technique: 'NVMe Sanitize, crypto erase (SANACT=4)',
      nist_category: 'Purge',
      passes_completed: null,
      started_at: '2026-11-22T13:01:02Z',
      completed_at: '2026-11-22T13:07:12Z',
      standard: 'NIST SP 800-88 Rev. 2 / IEEE 2883-2022',
    },
    tool: { name: 'Erasure Engine', version: '1.4.2', components: SAMPLE_COMPONENTS },
    verification: {
      method: 'Sampled read-back (10 %, 2 samples per subsection)',
      result: `${SAMPLE_MARKERS}; NVMe Sanitize, Crypto Erase: sanitize log SSTAT=1 (completed), PRGD set.`,
      hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    },
    operator: MIXED_OPERATOR,
    source_machine: {
      manufacturer: 'LENOVO',
      model: 'ThinkPad T480 (20L5CTO1WW)',
      serial: 'PF1ABCDE',
      asset_id: 'asset_9q8w7e6r5t4y3u2i1o0p',
    },
    disposition: 'sanitized',
    markings_removed: true,
    signed_at: '2026-11-22T13:07:40Z',
    verify_url: 'https://erasure.example.com/certificates/cert_4k2m9x0q7w1e5r8t3y6u/verify',
    pdf_signer_sha256: '5f0c8a1e2b3d4c6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f',
    crypto_erase_evidence: { command: 'nvme sanitize /dev/nvme0n1 --sanact=4', marker_readback: SAMPLE_MARKERS },
    validation_status: VALIDATION_AT_ISSUE,
    ...overrides,
  };
}

// A variable, not an inline literal: SMART fields are open-ended (spec 2) and not in the typed section.
const ERASED_DRIVE_ENTRY = {
  model: 'SAMSUNG MZVLB512HBJQ-000L7',
  serial: 'S4ENNX0N123456',
  size_bytes: 512110190592,
  media_type: 'NVMe SSD',
  transport: 'nvme',
  smart: { power_on_hours: 8123, percentage_used: 7, media_errors: 0, temperature_c: 38, available_spare_pct: 100 },
};

/** A report for {@link sampleContent}; `longNotes` makes the notes span several pages. */
export function sampleReport(content: CertificateContent, signature: string, longNotes = false): ErasureReportData {
  const paragraph =
    'Chassis received with a cracked bezel; drive bay screws replaced. オペレーターの確認済み。 ' +
    'تم التحقق من القرص بعد المسح. Проверено оператором после стирания. Ο έλεγχος ολοκληρώθηκε. ';
  return {
    certificate: content,
    signature,
    wipeResult: {
      job_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b-0',
      wipe_result_id: 'wr_8h3j5k7l9z1x2c4v6b0n',
      drive_serial: content.drive.serial ?? undefined,
      drive_model: content.drive.model ?? undefined,
      drive_capacity_gb: 512,
      wipe_method: 'NIST 800-88 R2 Purge',
      passes_completed: null,
      started_at: '2026-11-22T13:01:02Z',
      completed_at: '2026-11-22T13:07:12Z',
      verification_hash: content.verification.hash ?? undefined,
      technique: 'NVMe Sanitize, crypto erase (SANACT=4)',
      disposition: 'sanitized',
      markings_removed: true,
      tool_components: SAMPLE_COMPONENTS,
      verification_result: content.verification.result ?? undefined,
      certificate_status: 'generating',
    },
    fingerprint: {
      system: { manufacturer: 'LENOVO', product: '20L5CTO1WW', serial: 'PF1ABCDE', uuid: '4c4c4544-0042-3510-8052-b4c04f565032' },
      cpu: { model: 'Intel(R) Core(TM) i5-8350U CPU @ 1.70GHz', cores: 4, threads: 8 },
      memory: { total_bytes: 17179869184 },
      storage: [ERASED_DRIVE_ENTRY, { model: 'WDC WD10SPZX-24Z10', serial: 'WD-WX11A1234567', size_bytes: 1000204886016, media_type: 'HDD', transport: 'sata' }],
    },
    tests: {
      keyboard: { status: 'passed' },
      display: { status: 'passed', detail: 'No dead pixels; backlight even.' },
      usb_ports: { status: 'failed', detail: 'Left USB-A port does not enumerate devices. '.repeat(6) },
      battery: { status: 'detected', detail: 'Health 87 %, 312 cycles' },
      webcam: { status: 'not_applicable' },
      touchscreen: { status: 'not_started' },
    },
    notes: longNotes ? Array.from({ length: 40 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n') : paragraph,
  };
}

let pdfSigner: PdfSigner | undefined;
/** One self-signed PDF signer for the test process (RSA key generation takes a moment). */
export function testPdfSigner(): PdfSigner {
  pdfSigner ??= generateSelfSignedPdfSigner({ commonName: 'Erasure Cloud test certificates', now: new Date('2026-01-01T00:00:00Z') });
  return pdfSigner;
}
