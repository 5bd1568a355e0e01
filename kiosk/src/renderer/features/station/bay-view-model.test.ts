import { describe, expect, it } from 'vitest';
import { stationBay, stationBays } from '../../store/test-fixtures.js';
import { bayGrid, eraseWaiting, locateNote, NO_LOCATE, POLICY_TEXT, stationNotice, unmappedRows, watchWarning } from './bay-view-model.js';

const cell = (lane: string, station = stationBays()) => bayGrid(station).cells.find((c) => c.lane === lane)!;

describe('the bay view', () => {
  it('lays the bays out like the chassis, each at its saved grid place', () => {
    const sut = bayGrid(stationBays());
    expect({ rows: sut.rows, columns: sut.columns }).toEqual({ rows: 2, columns: 5 });
    expect(cell('lane-7')).toMatchObject({ row: 1, column: 1 });
  });

  it('places bays without a grid place in order in the free cells', () => {
    const station = stationBays({ bays: [stationBay(2), { ...stationBay(1), connector: undefined }, { ...stationBay(3), connector: undefined }] });
    expect(bayGrid(station).cells.map((c) => [c.lane, c.row, c.column])).toEqual([
      ['lane-2', 0, 1],
      ['lane-1', 0, 0],
      ['lane-3', 0, 2],
    ]);
  });

  it('is one row of all the bays when the station has no map shape', () => {
    const station = stationBays({ map: undefined, bays: [1, 2, 3].map((n) => ({ ...stationBay(n), connector: undefined })) });
    expect(bayGrid(station)).toMatchObject({ rows: 1, columns: 3 });
  });

  it('grows by rows when the bays need more cells than the map’s shape', () => {
    const station = stationBays({ map: { name: 'x', grid: { rows: 1, columns: 2 } }, bays: [1, 2, 3].map((n) => ({ ...stationBay(n), connector: undefined })) });
    expect(bayGrid(station).rows).toBe(2);
  });

  it('shows a drive just seated with its model, size, serial and SMART health', () => {
    expect(cell('lane-2')).toMatchObject({ headline: 'Drive detected', drive: 'SEAGATE ST4000NM · 4.0 TB · S/N ZC102', lines: ['SMART health: passed'] });
  });

  it('offers job details for a drive whose result is not sent yet, under its serial, and none once it passed', () => {
    expect(cell('lane-2')).toMatchObject({ jobSerial: 'ZC102' });
    const passed = stationBays({ bays: [stationBay(2, { state: 'passed' })] });
    expect(cell('lane-2', passed).jobSerial).toBeUndefined();
  });

  it('erases every waiting bay in one action, counting only drives that wait for the operator', () => {
    const waiting = (n: number) => stationBay(n, { state: 'awaiting_confirmation', drive: { device: `/dev/sd${'abcdef'[n]}`, health: 'passed' }, can: { confirm: true, cancel: true } });
    const left = stationBay(3, { state: 'detected', drive: { device: '/dev/sdd', health: 'passed' }, can: { confirm: true, cancel: false } });
    expect(eraseWaiting(stationBays({ bays: [waiting(1), waiting(2), left] }))).toEqual({ count: 2, text: 'Erase all 2 waiting bays' });
    expect(eraseWaiting(stationBays({ bays: [waiting(1), left] }))).toEqual({ count: 1, text: 'Erase the waiting bay' });
    expect(eraseWaiting(stationBays({ bays: [left] }))).toEqual({ count: 0, text: 'No bay is waiting' });
  });

  it('offers Erase on a drive the operator left alone, saying it was not erased', () => {
    const left = stationBays({ bays: [stationBay(2, { state: 'detected', drive: { device: '/dev/sdc', health: 'passed' }, can: { confirm: true, cancel: false } })] });
    expect(cell('lane-2', left)).toMatchObject({ headline: 'Drive detected', lines: ['SMART health: passed', 'Left as it is: not erased'], canConfirm: true, canLeave: false, canStop: false });
  });

  it('says only why a station refused to start, not that it cannot see drives it never watched', () => {
    const refused = stationBays({ phase: 'failed', reason: 'this device token was minted for the engine product', bays: [], watching: false });
    expect(watchWarning(refused)).toBeUndefined();
    expect(stationNotice(refused)).toEqual({ tone: 'bad', text: 'The station could not start: this device token was minted for the engine product' });
    expect(watchWarning({ ...refused, watch_error: 'udev is not running' })).toBe('This station cannot see drives being inserted or pulled: udev is not running');
  });

  it('shows a cancelled bay as Cancelled, never as Failed', () => {
    const cancelled = (untouched: boolean) => stationBays({ bays: [stationBay(5, { state: 'cancelled', drive: { device: '/dev/sdf', health: 'passed' }, untouched, can: { confirm: false, cancel: false } })] });
    expect(cell('lane-5', cancelled(false))).toMatchObject({ state: 'cancelled', headline: 'Cancelled', lines: ['Stopped part-way: not certified. Erase it again before reuse'] });
    expect(cell('lane-5', cancelled(true)).lines).toEqual(['Stopped before anything was written: not erased, not certified']);
  });

  it('offers erasing or leaving a drive that waits for confirmation, as the agent allows', () => {
    expect(cell('lane-3')).toMatchObject({ headline: 'Waiting for your confirmation', canConfirm: true, canLeave: true, canStop: false });
    expect(cell('lane-2')).toMatchObject({ canConfirm: false, canLeave: false });
  });

  // Issue 32: the bay's forecast free time, the one the floor view shows (now plus the time left).
  it('says when an erasing bay will be free, in the kiosk’s local time', () => {
    const now = new Date(2026, 10, 28, 14, 0, 0).getTime();
    expect(bayGrid(stationBays(), now).cells.find((c) => c.lane === 'lane-5')!.lines[2]).toBe('Bay free about 15:02');
    const unknown = stationBays({ bays: [stationBay(5, { state: 'erasing', drive: { device: '/dev/sdf' }, progress: { method: 'NIST 800-88 Clear, overwrite', pass: 1, percent: 0 }, can: { confirm: false, cancel: true } })] });
    expect(bayGrid(unknown, now).cells[0]!.lines).toEqual(['NIST 800-88 Clear, overwrite — pass 1', '0%']);
  });

  it('shows an erase’s method, pass, percent, rate and time left, with a cancel', () => {
    expect(cell('lane-5')).toMatchObject({ headline: 'Erasing', percent: 42.7, canStop: true, canLeave: false });
    expect(cell('lane-5').lines.slice(0, 2)).toEqual(['NIST 800-88 Clear, overwrite — pass 1', '42% · 180 MB/s · 1 h 02 min left']);
  });

  it('offers a cancel while a bay checks in, as the agent allows', () => {
    expect(cell('lane-4')).toMatchObject({ headline: 'Checking in with the erasure service…', canStop: false });
    const checking = stationBays({ bays: [stationBay(4, { state: 'checking_in', can: { confirm: false, cancel: true } })] });
    expect(cell('lane-4', checking)).toMatchObject({ canStop: true });
  });

  it('says a bay whose check-in got no answer waits for the erasure service, untouched, and when it tries again', () => {
    const since = new Date(2026, 10, 29, 1, 2).toISOString();
    const retry = new Date(2026, 10, 29, 1, 4, 30).toISOString();
    const waiting = stationBays({ bays: [stationBay(4, { state: 'checking_in', can: { confirm: false, cancel: true }, waiting_for_cloud: { reason: 'gateway unreachable: fetch failed', attempts: 3, since, retry_at: retry } })] });
    expect(cell('lane-4', waiting)).toMatchObject({
      headline: 'Waiting for the erasure service',
      lines: ['No answer since 01:02 (3 tries); trying again about 01:04', 'Not erased until the service allows it'],
      canStop: true,
      tooltip: expect.stringContaining('(gateway unreachable: fetch failed)'),
    });
  });

  it('shows the read-back percent while verifying', () => {
    expect(cell('lane-6')).toMatchObject({ headline: 'Verifying', percent: 61.2, canStop: true });
    expect(cell('lane-6').lines[0]).toBe('Reading back — 61%');
  });

  it('shows a passed drive’s certificate number once issued, else that it is pending', () => {
    expect(cell('lane-7').lines[0]).toBe('Certificate CW-000123');
    expect(cell('lane-8').lines[0]).toBe('certificate pending');
  });

  it('says a failed drive that was never written is untouched', () => {
    expect(cell('lane-9')).toMatchObject({ headline: 'Failed', lines: ['check-in denied: quota_exceeded', 'drive untouched'] });
    expect(cell('lane-9', stationBays({ bays: [stationBay(9, { state: 'failed', reason: 'write error', untouched: false })] })).lines[1]).toMatch(/partly erased/);
  });

  it('says a drive pulled mid-erase was removed, without repeating the agent’s reason', () => {
    expect(cell('lane-10')).toMatchObject({ headline: 'Removed during erase', lines: ['Pulled while erasing'] });
  });

  it('says nothing of a drive in an empty bay', () => {
    expect(cell('lane-1')).toMatchObject({ headline: 'Empty', lines: [], drive: undefined });
  });

  it('offers Locate only where the agent can blink the bay’s LED, and says why not in the tooltip', () => {
    expect(cell('lane-7').canLocate).toBe(true);
    expect(cell('lane-9')).toMatchObject({ canLocate: false, tooltip: `Bay 9: Failed — ${NO_LOCATE}` });
    expect(cell('lane-1').tooltip).toBe('Bay 1: Empty');
  });

  it('notes a missing locate LED once, and only for a bay holding a drive', () => {
    expect(locateNote(stationBays())).toBe(NO_LOCATE);
    expect(locateNote(stationBays({ bays: [stationBay(1)] }))).toBeUndefined();
  });

  it('names the erase policy in the operator’s words', () => {
    expect(POLICY_TEXT).toEqual({ auto: 'Erase starts on insert', confirm: 'Each drive waits for confirmation' });
  });

  it('warns when the station cannot watch drives come and go', () => {
    expect(watchWarning(stationBays())).toBeUndefined();
    expect(watchWarning(stationBays({ watching: false, watch_error: 'udevadm exited with code 1' }))).toBe('This station cannot see drives being inserted or pulled: udevadm exited with code 1');
  });

  it('lists drives in slots the map does not name', () => {
    expect(unmappedRows(stationBays({ unmapped: [{ device: '/dev/sdq', lane: 'sas:0000:03:00.0:phy9' }, { device: '/dev/sdr' }] })).map((r) => r.text)).toEqual(['/dev/sdq — slot sas:0000:03:00.0:phy9', '/dev/sdr']);
  });

  it('says it is looking up the map, or why the station failed, before there is anything to show', () => {
    expect(stationNotice(stationBays({ phase: 'looking_up' }))?.text).toBe('Looking up this chassis’s bay map…');
    expect(stationNotice(stationBays({ phase: 'failed', reason: 'chassis map lookup failed: 503' }))).toEqual({ tone: 'bad', text: 'The station could not start: chassis map lookup failed: 503' });
    expect(stationNotice(stationBays())).toBeUndefined();
  });
});
