/**
 * The hotswap station puts the bay a drive was erased in, and the chassis map that names the
 * bay, into the wipe result's `tool_components` (spec 2 has no field of its own for them):
 * `erasure-agent 0.1.0; bay=Bay 3; chassis=Rack A backplane`. The cloud reads them back for the
 * Erasure Report. `;` separates the parts, so it cannot appear inside a label.
 */
export interface StationBay {
  readonly bay: string;
  readonly chassis?: string;
}

/** A bay label or chassis name as it is written into `tool_components` (and so read back). */
export const stationComponentText = (s: string) => s.replace(/;/g, ',').replace(/\s+/g, ' ').trim();
const clean = stationComponentText;

export function stationToolComponents(tool: string, where: StationBay): string {
  return [tool, `bay=${clean(where.bay)}`, ...(where.chassis ? [`chassis=${clean(where.chassis)}`] : [])].join('; ');
}

/** The station bay named in `tool_components`, or undefined for an engine wipe. */
export function stationBayOf(toolComponents: string | null | undefined): StationBay | undefined {
  if (!toolComponents) return undefined;
  const parts = toolComponents.split(';').map((p) => p.trim());
  const value = (key: string) => parts.find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1).trim() || undefined;
  const bay = value('bay');
  if (!bay) return undefined;
  const chassis = value('chassis');
  return chassis ? { bay, chassis } : { bay };
}
