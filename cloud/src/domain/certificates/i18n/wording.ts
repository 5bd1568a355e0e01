import { CERTIFICATE_LANGUAGES, isCertificateLanguage, type CertificateLanguage } from '@erasure/shared';
import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

/*
 * Issue 31 item 7 part B: the languages a Certificate of Sanitization and its Erasure Report are
 * drawn in. Only the page is translated: the signed record (certificate.json) holds the same
 * language-neutral facts whatever the language, so verify-pdf redraws the page in each of these.
 */

/** The languages, as the settings and the token option name them (shared contract). */
export const LANGUAGES = CERTIFICATE_LANGUAGES;
export type Language = CertificateLanguage;
export const isLanguage = isCertificateLanguage;

export const MESSAGES: Readonly<Record<Language, Messages>> = { en, de, fr, es };

/** The placeholders of a message, sorted: every language must use the same ones. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

/** The words and number/date conventions of one language, as the renderers use them. */
export interface Wording {
  readonly language: Language;
  /** The message `key` with each `{name}` replaced; a missing value throws (a page never prints a raw placeholder). */
  t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
  /** A number grouped as the language writes it (1,000.5 · 1.000,5 · 1 000,5). */
  number(value: number | bigint, maxFractionDigits?: number): string;
  /** A UTC instant as the language writes dates, seconds kept: 2026-11-22 13:07:12 · 22.11.2026 13:07:12 · 22/11/2026 13:07:12. */
  timestamp(iso: string | null | undefined, zone?: boolean): string | null;
}

const LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' };

/** How each language orders the date part; English keeps the ISO-like form certificates always had. */
const DATE: Readonly<Record<Language, (y: string, m: string, d: string) => string>> = {
  en: (y, m, d) => `${y}-${m}-${d}`,
  de: (y, m, d) => `${d}.${m}.${y}`,
  fr: (y, m, d) => `${d}/${m}/${y}`,
  es: (y, m, d) => `${d}/${m}/${y}`,
};

const cache = new Map<Language, Wording>();

export function wordingFor(language: Language): Wording {
  const known = cache.get(language);
  if (known) return known;
  const messages = MESSAGES[language];
  // Built once per language: constructing Intl formatters per call dominated the formatting cost.
  const formats = new Map<number, Intl.NumberFormat>();
  const format = (digits: number) => {
    let f = formats.get(digits);
    if (!f) formats.set(digits, (f = new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: digits })));
    return f;
  };
  const wording: Wording = {
    language,
    t(key, values = {}) {
      return messages[key].replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = values[name];
        if (value === undefined) throw new Error(`message ${key} needs a value for {${name}}`);
        return String(value);
      });
    },
    number: (value, digits = 2) => format(digits).format(value),
    timestamp(iso, zone = true) {
      if (!iso) return null;
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      // Always UTC: a certificate is read in other time zones than the one it was made in.
      const s = date.toISOString();
      return `${DATE[language](s.slice(0, 4), s.slice(5, 7), s.slice(8, 10))} ${s.slice(11, 19)}${zone ? ' UTC' : ''}`;
    },
  };
  cache.set(language, wording);
  return wording;
}

/** The English wording: what every page was drawn in before languages, and still the default. */
export const ENGLISH = wordingFor('en');
