import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../format.js';
import { en } from './en.js';
import { LANGUAGES, MESSAGES, placeholdersOf, wordingFor } from './wording.js';

describe('certificate wording', () => {
  const keys = Object.keys(en).sort();

  it.each(LANGUAGES)('%s has every key of the English file and no other', (language) => {
    expect(Object.keys(MESSAGES[language]).sort()).toEqual(keys);
  });

  it.each(LANGUAGES)('%s uses the same placeholders as English in every message', (language) => {
    const mismatched = keys.filter(
      (key) => placeholdersOf(MESSAGES[language][key as keyof typeof en]).join() !== placeholdersOf(en[key as keyof typeof en]).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s translates the page titles rather than copying English', (language) => {
    for (const key of ['cert.title', 'cert.statement', 'report.title', 'report.summary'] as const) expect(MESSAGES[language][key]).not.toBe(en[key]);
  });

  it('keeps the standard names and sanitization levels untranslated in every statement', () => {
    for (const language of LANGUAGES) {
      const statement = wordingFor(language).t('cert.statement', { account: 'A', customer: '', level: 'Purge' });
      expect(statement).toContain('NIST SP 800-88 Rev. 2');
      expect(statement).toContain('IEEE 2883-2022');
      expect(statement).toContain('Purge');
    }
  });

  it('fills placeholders and refuses a message with a value missing', () => {
    expect(wordingFor('de').t('report.page', { page: 2, total: 5 })).toBe('Seite 2 von 5');
    expect(() => wordingFor('de').t('report.page', { page: 2 })).toThrow(/total/);
  });

  it('writes dates and numbers as each language does, English as before', () => {
    const at = '2026-11-22T13:07:12Z';
    expect(wordingFor('en').timestamp(at)).toBe(formatTimestamp(at));
    expect(wordingFor('de').timestamp(at, false)).toBe('22.11.2026 13:07:12');
    expect(wordingFor('fr').timestamp(at)).toBe('22/11/2026 13:07:12 UTC');
    expect(wordingFor('es').timestamp(at, false)).toBe('22/11/2026 13:07:12');
    expect(wordingFor('en').number(1234.5)).toBe('1,234.5');
    expect(wordingFor('de').number(1234.5)).toBe('1.234,5');
    expect(wordingFor('fr').number(1234.5)).toBe('1\u202f234,5');
  });

  it('upper-cases German headings with a double S for ß', () => {
    expect(wordingFor('de').t('report.size').toUpperCase()).toBe('GRÖSSE');
  });
});
