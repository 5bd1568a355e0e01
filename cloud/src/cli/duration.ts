const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };

/** Parses `90d`, `12h`, `30m`, `3600s`, `1y` into seconds; undefined for anything else. */
export function parseDurationSeconds(text: string): number | undefined {
  const match = /^(\d{1,6})([smhdwy])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2]!]!;
}
