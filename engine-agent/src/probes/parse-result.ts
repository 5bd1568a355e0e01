/**
 * Outcome of a parser. Tool output that carries no usable data (a failure message, an empty
 * device, a truncated dump) is an expected outcome, so it is a value and not an exception (STYLE E).
 */
export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** A successful parse. */
export const parsed = <T>(value: T): ParseResult<T> => ({ ok: true, value });

/** A parse that found nothing usable, with the reason a human can read. */
export const unparsable = <T = never>(reason: string): ParseResult<T> => ({ ok: false, reason });

/** Parses JSON text, turning a syntax error into a value. */
export function parseJsonText(text: string): ParseResult<unknown> {
  try {
    return parsed(JSON.parse(text) as unknown);
  } catch (error) {
    return unparsable(`not JSON: ${(error as Error).message}`);
  }
}
