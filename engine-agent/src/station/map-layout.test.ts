import { describe, expect, it } from 'vitest';
import { gridOfMap, mapToSave } from './map-layout.js';

const sata = (port: string) => ({ transport: 'sata' as const, controller: '0000:00:1f.2', port });

describe('the chassis map the wizard saves', () => {
  it('keeps each bay at its place in the grid, counting skipped bays, inside its connector', () => {
    const map = mapToSave('Front cage', [
      { number: 1, lane: 'a', label: 'Bay 1', connector: sata('1') },
      { number: 3, lane: 'c', label: 'Bay 3', connector: sata('3') },
    ], { rows: 2, columns: 2 });
    expect(map.bays.map((b) => [b.label, b.connector.grid])).toEqual([
      ['Bay 1', { row: 0, column: 0, rows: 2, columns: 2 }],
      ['Bay 3', { row: 1, column: 0, rows: 2, columns: 2 }],
    ]);
    expect(map.bays[0]?.connector).toMatchObject(sata('1'));
  });

  it('grows the grid by rows when more bays were mapped than its cells hold', () => {
    const bays = [1, 2, 3, 4, 5].map((n) => ({ number: n, lane: `l${n}`, label: `Bay ${n}`, connector: sata(String(n)) }));
    expect(mapToSave('Dock', bays, { rows: 1, columns: 4 }).bays[4]?.connector.grid).toEqual({ row: 1, column: 0, rows: 2, columns: 4 });
  });

  it('reads the grid back from a map it saved, and lays a map without one out as a single row', () => {
    const saved = mapToSave('Dock', [{ number: 2, lane: 'b', label: 'Bay 2', connector: sata('2') }], { rows: 3, columns: 4 });
    expect(gridOfMap(saved.bays as never)).toEqual({ rows: 3, columns: 4 });
    expect(gridOfMap([{ lane: 'x', label: 'A' }, { lane: 'y', label: 'B' }])).toEqual({ rows: 1, columns: 2 });
  });
});
