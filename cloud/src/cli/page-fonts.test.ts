import { describe, expect, it } from 'vitest';
import { FontUnavailableError, type FontSource } from '../domain/certificates/fonts.js';
import { fontsOnce } from './page-fonts.js';

describe('the page check fonts of one verify-pdf run', () => {
  const source = { regular: [], bold: [], mono: [] } as unknown as FontSource;

  it('are read once however many certificates ask for them', () => {
    let reads = 0;
    const fonts = fontsOnce(() => (reads++, source));
    for (let i = 0; i < 600; i++) expect(fonts()).toEqual({ ok: true, fonts: source });
    expect(reads).toBe(1);
  });

  it('a missing font refuses every certificate with the same message, read once', () => {
    let reads = 0;
    const fonts = fontsOnce(() => {
      reads++;
      throw new FontUnavailableError('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf');
    });
    const first = fonts();
    expect(first).toMatchObject({ ok: false, error: expect.stringContaining('DejaVuSans.ttf is unavailable') });
    expect(fonts()).toEqual(first);
    expect(reads).toBe(1);
  });

  it('an error that is not about a font is thrown, not kept', () => {
    let reads = 0;
    const fonts = fontsOnce(() => {
      reads++;
      throw new Error('out of memory');
    });
    expect(() => fonts()).toThrow('out of memory');
    expect(() => fonts()).toThrow('out of memory');
    expect(reads).toBe(2);
  });
});
