import { writeFileSync } from 'node:fs';
import { test } from 'vitest';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { sampleContent, testFonts, testKeys } from '../../test/certificates/fixtures.js';
test('look', async () => {
  const c = sampleContent();
  const { privateKey } = testKeys();
  const sig = signContent(privateKey, c);
  const fonts = testFonts();
  let t = performance.now();
  const pdf = await renderCertificatePdf(c, { fonts, signature: sig });
  console.log('first', performance.now() - t);
  t = performance.now();
  for (let i = 0; i < 10; i++) await renderCertificatePdf(c, { fonts, signature: sig });
  console.log('avg', (performance.now() - t) / 10, pdf.length);
  writeFileSync('/tmp/cert-look/cert.pdf', pdf);
});
