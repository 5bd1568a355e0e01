import { describe, expect, it } from 'vitest';
import { stationBay, stationBays } from '../../store/test-fixtures.js';
import { bayGrid, locateNote, NO_LOCATE } from './bay-view-model.js';

/** Locate as the agent now offers it: on an empty SES slot too, and never where ledctl refused the drive's controller. */
describe('locate in the bay view', () => {
  const station = stationBays({
    bays: [
      stationBay(7, { can_locate: true }),
      stationBay(1, { state: 'detected', drive: { device: '/dev/sda', health: 'unknown' }, can_locate: false }),
      stationBay(2),
    ],
  });
  const cell = (lane: string) => bayGrid(station).cells.find((c) => c.lane === lane);

  it('offers Locate on an empty bay whose SES slot can blink', () => {
    expect(cell('lane-7')).toMatchObject({ state: 'empty', canLocate: true, tooltip: 'Bay 7: Empty — Locate blinks its LED' });
  });

  it('keeps saying a seated drive’s bay cannot blink where the agent says so, and says nothing of an empty bay that cannot', () => {
    expect(cell('lane-1')).toMatchObject({ canLocate: false, tooltip: `Bay 1: Drive detected — ${NO_LOCATE}` });
    expect(cell('lane-2')).toMatchObject({ canLocate: false, tooltip: 'Bay 2: Empty' });
    expect(locateNote(station)).toBe(NO_LOCATE);
  });
});
