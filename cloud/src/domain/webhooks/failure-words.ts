import type { OutboundFailure } from './ssrf.js';

/** The user's words for each category: the same on every surface (Push, webhooks, the sandbox). */
const FAILURE_WORDS: Readonly<Record<OutboundFailure, string>> = {
  refused: 'the target address is not allowed',
  timeout: 'timed out',
  tls: 'TLS error',
  connect: 'could not connect',
  too_large: 'the answer was too large',
};

/**
 * What the user who typed a URL is told about a request to it that failed in transport: a
 * category, never the detail (errno, resolved address, port, TLS library text), which would
 * let them map the cloud's network; the caller logs the detail. No category reads as `connect`.
 */
export function describeOutboundFailure(failure: OutboundFailure | undefined): string {
  return FAILURE_WORDS[failure ?? 'connect'];
}

const CATEGORY_WORDS: ReadonlySet<string> = new Set(Object.values(FAILURE_WORDS));

/**
 * A stored attempt error as the account may see it: a category or a receiver's `HTTP <status>`
 * passes. Ledger rows written before failures were stored as categories hold the raw detail;
 * those read as the default category instead of leaking it (they age out with the ledger).
 */
export function shownAttemptError(stored: string | null): string | null {
  if (stored === null || CATEGORY_WORDS.has(stored) || /^HTTP \d{3}$/.test(stored)) return stored;
  return describeOutboundFailure(undefined);
}
