/** Helpers for the human-readable outputs (hdparm, nvme -H, smartctl text, udevadm, upower). */

/** Splits text into lines, accepting CRLF captures. */
export function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Parses an integer printed with thousands separators: "960,193,626,112", or the locale form
 * "7 681 501 126 656" smartctl prints outside the C locale. Returns undefined past 2^53.
 */
export function parseGroupedInt(text: string): number | undefined {
  const digits = text.trim().replace(/[,.\s\u00a0']/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Parses "0x1f" or "31" into a number. */
export function parseIntAuto(text: string): number | undefined {
  const t = text.trim();
  if (/^0x[0-9a-f]+$/i.test(t)) return Number.parseInt(t.slice(2), 16);
  if (/^\d+$/.test(t)) return Number.parseInt(t, 10);
  return undefined;
}

/** Reads `Key: value` pairs (first colon splits) into a map, keeping the first occurrence of a key. */
export function colonPairs(text: string, pattern = /^\s*([^:]+?)\s*:\s*(.*?)\s*$/): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const line of lines(text)) {
    const m = pattern.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && !pairs.has(m[1])) pairs.set(m[1], m[2]);
  }
  return pairs;
}

/** Returns undefined for empty strings so optional fields stay absent. */
export function nonEmpty(text: string | undefined): string | undefined {
  const t = text?.trim();
  return t ? t : undefined;
}
