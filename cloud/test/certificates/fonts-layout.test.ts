import { describe, expect, test } from 'vitest';
import {
  FontUnavailableError,
  loadFontSource,
  splitRuns,
} from '../../src/domain/certificates/fonts.js';
import { clampLines, textWidth, wrapText, type TextStyle } from '../../src/domain/certificates/layout.js';
import { testFonts } from './fixtures.js';

const BODY: TextStyle = { role: 'regular', size: 10 };

describe('font fallback', () => {
  const fonts = testFonts();

  test('Latin, Greek, Cyrillic and Arabic use DejaVu; CJK falls back to Droid Sans Fallback', () => {
    const runs = splitRuns('Ivan Иван Ωμέγα 山田太郎 محمد', fonts.regular);
    const byFace = runs.map((r) => [r.face.name, r.text.trim()]);
    expect(byFace).toContainEqual(['DroidSansFallback', '山田太郎']);
    expect(byFace).toContainEqual(['DejaVuSans', 'محمد']);
    expect(runs.map((r) => r.text).join('')).toBe('Ivan Иван Ωμέγα 山田太郎 محمد');
  });

  test('emoji fall back to Symbola instead of drawing empty boxes (issue 28, item 16)', () => {
    // DejaVu has the emoticons (😀) but not 👍, 🔥 or ✅, which drew empty boxes.
    const runs = splitRuns('Scuffed lid \u{1F44D} hot \u{1F525} done \u{2705}', fonts.regular);
    expect(runs.map((r) => [r.face.name, r.text.trim()])).toEqual(
      expect.arrayContaining([['Symbola', '\u{1F44D}'], ['Symbola', '\u{1F525}'], ['Symbola', '\u{2705}']]),
    );
    for (const role of ['regular', 'bold', 'mono'] as const) {
      for (const cp of [0x1f44d, 0x1f525, 0x2705, 0x1f3eb]) expect(fonts[role].some((face) => face.font.hasGlyphForCodePoint(cp))).toBe(true);
    }
  });

  test('control characters and uncovered characters never throw', () => {
    expect(() => textWidth(fonts, 'tab\there\u0000 \u{1F9EA} \u{10FFFD}', BODY)).not.toThrow();
  });

  test('a missing font file fails at load with the path and the packages to install', () => {
    const sut = () =>
      loadFontSource(
        { regular: ['/nonexistent/Font.ttf'], bold: ['/nonexistent/Font.ttf'], mono: ['/nonexistent/Font.ttf'] },
        { readFile: () => { throw new Error('ENOENT'); } },
      );
    expect(sut).toThrow(FontUnavailableError);
    expect(sut).toThrow(/\/nonexistent\/Font\.ttf.*fonts-dejavu-core.*fonts-droid-fallback.*fonts-symbola/);
  });
});

describe('wrapText', () => {
  const fonts = testFonts();

  test.each([
    ['prose', 'The quick brown fox jumps over the lazy dog. '.repeat(8)],
    ['a hash with no spaces', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'.repeat(3)],
    ['CJK without spaces', '東京リサイクル株式会社のオペレーターが確認しました。'.repeat(4)],
    ['mixed scripts', '山田 太郎 · محمد علي · Иван Петров · Ωμέγα '.repeat(5)],
  ])('keeps every line of %s within the width', (_name, text) => {
    const lines = wrapText(fonts, text, BODY, 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(fonts, line, BODY)).toBeLessThanOrEqual(120.01);
    expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });

  test('keeps explicit line breaks', () => {
    expect(wrapText(fonts, 'one\ntwo\n\nthree', BODY, 500)).toEqual(['one', 'two', '', 'three']);
  });

  test('clamping marks the cut with an ellipsis that still fits', () => {
    const lines = clampLines(fonts, wrapText(fonts, 'word '.repeat(200), BODY, 100), 2, BODY, 100);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/…$/);
    expect(textWidth(fonts, lines[1] ?? '', BODY)).toBeLessThanOrEqual(100);
  });
});
