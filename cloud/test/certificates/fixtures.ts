import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CERTIFICATE_SCHEMA, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { DEBIAN_FONT_FILES, loadFontSource, type FontSource } from '../../src/domain/certificates/fonts.js';

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
    },
    tool: { name: 'Erasure Engine', version: '1.4.2', components: 'nvme-cli 2.8; hdparm 9.65; erasure-verify 1.4.2' },
    verification: {
      method: 'Sampled read-back (10 %, 2 samples per subsection)',
      result: 'Passed: 51,200 sampled sectors read back as the expected pattern; sanitize log SSTAT=1 (completed), PRGD set.',
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
    ...overrides,
  };
}
