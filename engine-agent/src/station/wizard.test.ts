import { describe, expect, it } from 'vitest';
import type { Connector } from './lanes.js';
import { nextBayNumber, startWizard, stepWizard, type WizardEvent, type WizardState } from './wizard.js';

const port = (n: number): Connector => ({ transport: 'sata', controller: '0000:00:1f.2', port: String(n) });
const seen = (n: number): WizardEvent => ({ type: 'lane_seen', lane: `ata-${n}`, connector: port(n) });
const run = (events: WizardEvent[], from: WizardState = startWizard([])) => events.reduce(stepWizard, from);
const mapping = (s: WizardState) => {
  if (s.step !== 'mapping') throw new Error(`expected mapping, got ${s.step}`);
  return s;
};

describe('the bay mapping wizard', () => {
  it('proposes "Bay 1" for the first drive inserted, and maps it when accepted', () => {
    const s = run([seen(3)]);
    expect(mapping(s).proposal).toEqual({ lane: 'ata-3', connector: port(3), label: 'Bay 1' });
    expect(mapping(stepWizard(s, { type: 'accept' })).bays).toEqual([{ number: 1, lane: 'ata-3', connector: port(3), label: 'Bay 1' }]);
  });

  it('lets the operator type over the proposed label', () => {
    expect(mapping(run([seen(3), { type: 'accept', label: '  Top   left ' }])).bays[0]?.label).toBe('Top left');
  });

  it('numbers bays in turn, counting skipped ones', () => {
    const s = mapping(run([seen(1), { type: 'accept' }, { type: 'skip' }, seen(2)]));
    expect(s.proposal?.label).toBe('Bay 3');
    expect(s.skipped).toEqual([2]);
  });

  it('undoes the last bay, the last skip, or a pending proposal', () => {
    const s = run([seen(1), { type: 'accept' }, seen(2), { type: 'accept' }]);
    expect(mapping(stepWizard(s, { type: 'undo' })).bays.map((b) => b.label)).toEqual(['Bay 1']);
    const skipped = run([{ type: 'skip' }], s);
    expect(mapping(stepWizard(skipped, { type: 'undo' })).skipped).toEqual([]);
    const proposed = run([seen(3)], s);
    expect(mapping(stepWizard(proposed, { type: 'undo' })).proposal).toBeUndefined();
  });

  it('does not propose a lane already mapped, or a second one while one waits', () => {
    const s = run([seen(1), { type: 'accept' }, seen(1)]);
    expect(mapping(s).proposal).toBeUndefined();
    const waiting = run([seen(2), seen(3)], s);
    expect(mapping(waiting).proposal?.lane).toBe('ata-2');
  });

  it('asks about drives present when it started instead of assigning them silently', () => {
    const s = startWizard([{ lane: 'ata-5', connector: port(5) }]);
    expect(mapping(stepWizard(s, seen(5))).proposal).toBeUndefined();
    const assigned = mapping(stepWizard(s, { type: 'assign_preexisting', lane: 'ata-5', label: 'Rear bay' }));
    expect(assigned.bays).toEqual([{ number: 1, lane: 'ata-5', connector: port(5), label: 'Rear bay' }]);
    expect(assigned.preexisting).toEqual([]);
  });

  it('sets the grid shape that mimics the chassis, within sane bounds', () => {
    expect(mapping(run([{ type: 'grid', rows: 6, columns: 4 }])).grid).toEqual({ rows: 6, columns: 4 });
    expect(mapping(run([{ type: 'grid', rows: 0, columns: 4 }])).grid).toEqual({ rows: 1, columns: 4 });
  });

  it('names the map and ends saved once the station stored it', () => {
    const naming = run([seen(1), { type: 'accept' }, { type: 'finish' }]);
    expect(naming.step).toBe('naming');
    expect(stepWizard(naming, { type: 'saved' })).toBe(naming);
    const saved = run([{ type: 'name', name: ' Front cage ' }, { type: 'saved' }], naming);
    expect(saved).toEqual({ step: 'saved', name: 'Front cage', bays: [{ number: 1, lane: 'ata-1', connector: port(1), label: 'Bay 1' }] });
  });

  it('cannot finish with no bay mapped, or with a proposal still open', () => {
    expect(run([{ type: 'finish' }]).step).toBe('mapping');
    expect(run([seen(1), { type: 'finish' }]).step).toBe('mapping');
  });

  it('counts the next bay from mapped and skipped bays', () => {
    expect(nextBayNumber(mapping(run([seen(1), { type: 'accept' }, { type: 'skip' }])))).toBe(3);
  });

  it('asks about a drive found seated after the wizard started, and stops asking once it is pulled', () => {
    const s = run([{ type: 'already_present', lane: 'ata-6', connector: port(6) }]);
    expect(mapping(s).preexisting).toEqual([{ lane: 'ata-6', connector: port(6) }]);
    expect(mapping(s).proposal).toBeUndefined();
    expect(mapping(stepWizard(s, { type: 'lane_gone', lane: 'ata-6' })).preexisting).toEqual([]);
  });
});
