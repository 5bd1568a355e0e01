import type { Bay, GridShape, StationConnector } from '@erasure/shared';
import type { Connector } from './lanes.js';
import type { MappedBay } from './wizard.js';

/** The chassis map as the station saves it (spec 2: `{name, bays[{lane, label, connector?}]}`). */
export interface SavedMap {
  readonly name: string;
  /** Where the station stands, when the operator typed a site on the naming step. */
  readonly site?: string;
  readonly bays: readonly { readonly lane: string; readonly label: string; readonly connector: StationConnector }[];
}

/**
 * The map the wizard produced, with each bay's place in the chassis grid kept in its `connector`
 * (`grid: {row, column, rows, columns}`, row-major, from the number it was asked for as): the
 * spec's map has no grid of its own, and `connector` is the object it keeps for slot details.
 * The grid grows to hold every bay when the operator mapped more than its shape has cells.
 */
export function mapToSave(name: string, bays: readonly MappedBay[], grid: GridShape, site?: string): SavedMap {
  const highest = Math.max(0, ...bays.map((b) => b.number));
  const rows = Math.max(grid.rows, Math.ceil(highest / grid.columns));
  return {
    name,
    ...(site ? { site } : {}),
    bays: bays.map((b) => ({
      lane: b.lane,
      label: b.label,
      connector: { ...b.connector, grid: { row: Math.floor((b.number - 1) / grid.columns), column: (b.number - 1) % grid.columns, rows, columns: grid.columns } },
    })),
  };
}

const isGrid = (g: unknown): g is { row: number; column: number; rows: number; columns: number } => {
  const o = g as Record<string, unknown> | undefined;
  return typeof o === 'object' && o !== null && [o.row, o.column, o.rows, o.columns].every((n) => Number.isInteger(n) && (n as number) >= 0) && (o.rows as number) > 0 && (o.columns as number) > 0;
};

/** The grid a stored map was saved with; a map saved without one (another tool) is one row. */
export function gridOfMap(bays: readonly Bay[]): GridShape {
  const grid = bays.map((b) => (b.connector as Record<string, unknown> | undefined)?.grid).find(isGrid);
  return grid ? { rows: grid.rows, columns: grid.columns } : { rows: 1, columns: Math.max(1, bays.length) };
}

/** A stored bay's connector as the bay view shows it; undefined when it is not one this station wrote. */
export function connectorOf(bay: Bay): StationConnector | undefined {
  const c = bay.connector as Record<string, unknown> | undefined;
  if (!c || typeof c.transport !== 'string' || typeof c.controller !== 'string') return undefined;
  return c as unknown as StationConnector;
}

/** The wire form of a lane's connector. */
export const wireConnector = (c: Connector): StationConnector => ({ ...c });
