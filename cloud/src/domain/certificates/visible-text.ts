import { LANGUAGES, wordingFor } from './i18n/wording.js';

/** The record fields a certificate and its report print, which a forged page would change. */
export interface VisibleFacts {
  certificate_number?: unknown;
  drive?: { serial?: unknown; model?: unknown };
  wipe?: { method?: unknown; started_at?: unknown; completed_at?: unknown };
  signed_at?: unknown;
}

/**
 * The signed record's fields that the pages' text does not carry: certificate number, drive
 * serial and model, method, and the start, completion and signing times as the pages print them.
 * Whitespace is ignored (values wrap across lines), and a value the layout shortened with "…"
 * counts when the page shows a long enough start of it. A time counts in the date form of any
 * language a page is drawn in (the Certificate's page itself is redrawn and compared exactly).
 * An empty answer means the page agrees.
 */
export function missingVisibleFacts(pageText: string, facts: VisibleFacts): string[] {
  const text = squash(pageText);
  const time = (iso: unknown) => (typeof iso === 'string' ? LANGUAGES.map((language) => wordingFor(language).timestamp(iso, false)) : null);
  const expected: [string, unknown | string[]][] = [
    ['certificate number', facts.certificate_number],
    ['drive serial', facts.drive?.serial],
    ['drive model', facts.drive?.model],
    ['method', facts.wipe?.method],
    ['started at', time(facts.wipe?.started_at)],
    ['completed at', time(facts.wipe?.completed_at)],
    ['signed at', time(facts.signed_at)],
  ];
  const missing = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.every(missing);
    return typeof value === 'string' && value.trim() !== '' && !shows(text, squash(value));
  };
  return expected.filter(([, value]) => missing(value)).map(([name]) => name);
}

const squash = (s: string) => s.replace(/\s+/g, '');

/** Whether `text` holds `value`, or a start of it of at least 12 characters cut with "…". */
function shows(text: string, value: string): boolean {
  if (text.includes(value)) return true;
  for (let cut = text.indexOf('…'); cut >= 0; cut = text.indexOf('…', cut + 1)) {
    for (let length = Math.min(value.length - 1, cut); length >= Math.min(12, value.length - 1); length--) {
      if (text.slice(cut - length, cut) === value.slice(0, length)) return true;
    }
  }
  return false;
}
