import { describe, expect, it } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { DEBIAN_FONT_FILES } from '../../src/domain/certificates/fonts.js';
import { inProcessRenderer, type CertificateRenderer } from '../../src/jobs/renderer.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from '../certificates/fixtures.js';
import { requireBuiltCloud } from '../certificates/processes.js';

// The thread script only exists compiled, so the pool is loaded from cloud/dist as the CLI runs it.
type PoolModule = {
  threadPoolRenderer(options: { size: number; fontFiles: typeof DEBIAN_FONT_FILES }): CertificateRenderer & { ready: Promise<void> };
};
const loadPool = async (): Promise<PoolModule> => {
  requireBuiltCloud();
  return (await import(new URL('../../dist/jobs/renderer.js', import.meta.url).href)) as PoolModule;
};

describe('render thread pool (the CLI worker renders off the event loop)', () => {
  it('renders the same bytes as rendering inline, for concurrent requests', async () => {
    const { threadPoolRenderer } = await loadPool();
    const { privateKey } = testKeys();
    const inputs = ['CW-000001', 'CW-000002', 'CW-000003'].map((n) => {
      const content = sampleContent({ certificate_number: n });
      const signature = signContent(privateKey, content);
      return { content, signature, report: sampleReport(content, signature), pdfSigner: testPdfSigner() };
    });
    const sut = threadPoolRenderer({ size: 2, fontFiles: DEBIAN_FONT_FILES });
    try {
      await sut.ready;
      const pooled = await Promise.all(inputs.map((input) => sut.render(input)));
      const inline = inProcessRenderer(testFonts());
      for (const [i, input] of inputs.entries()) {
        const expected = await inline.render(input);
        expect(Buffer.from(pooled[i]!.certificate).equals(Buffer.from(expected.certificate))).toBe(true);
        expect(Buffer.from(pooled[i]!.report).equals(Buffer.from(expected.report))).toBe(true);
      }
    } finally {
      await sut.close();
    }
  });

  it('fails at start when a font is missing, and refuses work once closed', async () => {
    const { threadPoolRenderer } = await loadPool();
    const broken = threadPoolRenderer({ size: 1, fontFiles: { ...DEBIAN_FONT_FILES, bold: ['/nonexistent/font.ttf'] } });
    await expect(broken.ready).rejects.toThrow(/font file \/nonexistent\/font\.ttf is unavailable/);
    await broken.close();
    await expect(broken.render({} as never)).rejects.toThrow(/closed/);
  });
});
