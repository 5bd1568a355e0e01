import { describe, expect, it } from 'vitest';
import type { Connector } from './lanes.js';
import { allBaysAsked, labelRefusal, nextBayNumber, startWizard, stepWizard, type WizardEvent, type WizardState } from './wizard.js';

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

  it('saves the site typed beside the name, trimmed, and none when it was left blank', () => {
    const naming = run([seen(1), { type: 'accept' }, { type: 'finish' }]);
    expect(run([{ type: 'name', name: 'Front cage', site: '  Leeds   floor 2 ' }, { type: 'saved' }], naming)).toMatchObject({ step: 'saved', name: 'Front cage', site: 'Leeds floor 2' });
    expect(run([{ type: 'name', name: 'Front cage', site: '  ' }, { type: 'saved' }], naming)).not.toHaveProperty('site');
    // A name step that does not say the site keeps the one typed before.
    expect(run([{ type: 'name', name: 'F', site: 'Leeds' }, { type: 'name', name: 'Front' }, { type: 'saved' }], naming)).toMatchObject({ name: 'Front', site: 'Leeds' });
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

  describe('a controller that reports how many bays it has', () => {
    const fourBays = () => startWizard([], undefined, 4);

    it('starts with a grid of exactly those bays', () => {
      expect(mapping(fourBays()).grid).toEqual({ rows: 1, columns: 4 });
      expect(mapping(startWizard([], undefined, 8)).grid).toEqual({ rows: 2, columns: 4 });
      expect(mapping(startWizard([], undefined, 2)).grid).toEqual({ rows: 1, columns: 2 });
    });

    it('asks for no bay past the last one: no "Bay 5" on a 4-bay backplane, no skip, no proposal', () => {
      const s = mapping(run([seen(1), { type: 'accept' }, seen(2), { type: 'accept' }, { type: 'skip' }, seen(4), { type: 'accept' }], fourBays()));
      expect(allBaysAsked(s)).toBe(true);
      expect(run([{ type: 'skip' }], s)).toBe(s);
      expect(run([seen(5)], s)).toBe(s);
      expect(s.skipped).toEqual([3]);
      // Undo frees the last number again, and the wizard asks for it.
      const undone = mapping(run([{ type: 'undo' }], s));
      expect(allBaysAsked(undone)).toBe(false);
      expect(mapping(run([seen(4)], undone)).proposal?.label).toBe('Bay 4');
      // Going back from naming keeps the count.
      expect(mapping(run([{ type: 'finish' }, { type: 'undo' }], s)).bayCount).toBe(4);
    });

    it('asks on without end when no count is known', () => {
      const s = mapping(run([1, 2, 3, 4].flatMap((n) => [seen(n), { type: 'accept' } as const])));
      expect(allBaysAsked(s)).toBe(false);
      expect(mapping(run([seen(5)], s)).proposal?.label).toBe('Bay 5');
    });
  });

  describe('going back from naming to mapping', () => {
    // Bays 1 and 3 mapped, bay 2 skipped, a seated drive still to be asked about.
    const seated = { lane: 'ata-9', connector: port(9) };
    const mapped = () => run([seen(1), { type: 'accept' }, { type: 'skip' }, seen(3), { type: 'accept' }], startWizard([seated]));
    const back = () => mapping(run([{ type: 'finish' }, { type: 'name', name: 'Front cage', site: 'Leeds' }, { type: 'undo' }], mapped()));

    it('keeps bays, skipped numbers, seated drives, grid and name', () => {
      const sut = back();
      expect(sut.bays.map((b) => [b.number, b.label])).toEqual([
        [1, 'Bay 1'],
        [3, 'Bay 3'],
      ]);
      expect(sut.skipped).toEqual([2]);
      expect(sut.preexisting).toEqual([seated]);
      expect(sut.name).toBe('Front cage');
      expect(sut.site).toBe('Leeds');
      expect(run([{ type: 'finish' }], sut)).toMatchObject({ step: 'naming', name: 'Front cage', site: 'Leeds' });
    });

    it('goes on numbering after the highest bay, never proposing a label or cell twice', () => {
      const sut = back();
      expect(nextBayNumber(sut)).toBe(4);
      expect(mapping(stepWizard(sut, seen(4))).proposal?.label).toBe('Bay 4');
      const more = mapping(run([seen(4), { type: 'accept' }], sut));
      expect(more.bays.map((b) => b.number)).toEqual([1, 3, 4]);
    });

    it('still lets a drive seated before mapping be assigned, without re-seating it', () => {
      const sut = mapping(stepWizard(back(), { type: 'assign_preexisting', lane: 'ata-9' }));
      expect(sut.bays.at(-1)).toEqual({ number: 4, lane: 'ata-9', connector: port(9), label: 'Bay 4' });
      expect(sut.preexisting).toEqual([]);
    });

    it('asks about a drive seated while naming, and forgets one pulled then', () => {
      const naming = run([{ type: 'finish' }], mapped());
      const pulled = run([seen(5), { type: 'lane_gone', lane: 'ata-9' }, { type: 'undo' }], naming);
      expect(mapping(pulled).preexisting).toEqual([{ lane: 'ata-5', connector: port(5) }]);
      expect(mapping(pulled).proposal).toBeUndefined();
    });

    it('undoes the highest number first, then the one before it', () => {
      const sut = back();
      const once = mapping(stepWizard(sut, { type: 'undo' }));
      expect([once.bays.map((b) => b.number), once.skipped]).toEqual([[1], [2]]);
      const twice = mapping(stepWizard(once, { type: 'undo' }));
      expect([twice.bays.map((b) => b.number), twice.skipped]).toEqual([[1], []]);
      expect(nextBayNumber(twice)).toBe(2);
    });
  });

  describe('bay labels are unique', () => {
    const two = () => run([seen(1), { type: 'accept', label: 'Top left' }, seen(2)]);

    it('refuses typing over the proposal with a label another bay has, saying which', () => {
      const before = two();
      expect(stepWizard(before, { type: 'accept', label: ' top   LEFT ' })).toBe(before);
      expect(labelRefusal(mapping(before), ' top   LEFT ')).toBe('the label “top LEFT” is already used for bay 1: type a different one');
      expect(mapping(stepWizard(before, { type: 'accept', label: 'Top right' })).bays.map((b) => b.label)).toEqual(['Top left', 'Top right']);
    });

    it('refuses assigning a seated drive under a label another bay has', () => {
      const before = run([seen(1), { type: 'accept' }], startWizard([{ lane: 'ata-9', connector: port(9) }]));
      expect(stepWizard(before, { type: 'assign_preexisting', lane: 'ata-9', label: 'bay 1' })).toBe(before);
      expect(labelRefusal(mapping(before), 'bay 1')).toMatch(/already used for bay 1/);
    });

    it('does not propose "Bay N" when the operator already gave that label to another bay', () => {
      const sut = mapping(run([seen(1), { type: 'accept', label: 'Bay 2' }, seen(2)]));
      expect(sut.proposal?.label).toBe('Bay 2 (2)');
      const assigned = mapping(run([seen(1), { type: 'accept', label: 'Bay 2' }, { type: 'assign_preexisting', lane: 'ata-9' }], startWizard([{ lane: 'ata-9', connector: port(9) }])));
      expect(assigned.bays.map((b) => b.label)).toEqual(['Bay 2', 'Bay 2 (2)']);
    });

    it('has no refusal for a free label', () => {
      expect(labelRefusal(mapping(two()), 'Top right')).toBeUndefined();
    });
  });
});
