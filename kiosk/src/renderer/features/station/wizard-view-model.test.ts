import { describe, expect, it } from 'vitest';
import { sasSlot, stationWizard } from '../../store/test-fixtures.js';
import { connectorFacts, gridFromDraft, mappingView, namingView, previewGrid } from './wizard-view-model.js';
import type { WizardView } from '../../contract.js';

const wizard = (over: Partial<WizardView> = {}): WizardView => stationWizard(over).wizard!;
const noDrafts = { labelDraft: undefined, gridDraft: undefined, nameDraft: undefined };

describe('the mapping wizard', () => {
  it('asks for the next bay by its number', () => {
    expect(mappingView(wizard({ next_bay: 5 }), noDrafts).instruction).toBe('Insert a drive into Bay 5');
  });

  it('shows the slot a drive was just seen in, transport and controller first', () => {
    const sut = mappingView(wizard(), noDrafts).proposal;
    expect(sut?.facts).toEqual([
      ['Transport', 'SAS'],
      ['Controller', '0000:03:00.0'],
      ['Port', '1'],
      ['PHY', '5'],
      ['Target', '0:0:5'],
      ['Enclosure slot', '2 (enclosure 500605b0)'],
    ]);
  });

  it('prefills the label with the agent’s proposal, and keeps what the operator typed over it', () => {
    expect(mappingView(wizard(), noDrafts).proposal?.label).toBe('Bay 2');
    expect(mappingView(wizard(), { ...noDrafts, labelDraft: { lane: 'lane-2', text: 'Front left 2' } }).proposal?.label).toBe('Front left 2');
  });

  it('says at once when the label typed is another bay’s, spacing and case aside, and offers no Accept then', () => {
    const sut = mappingView(wizard(), { ...noDrafts, labelDraft: { lane: 'lane-2', text: ' bay  1 ' } });
    expect(sut.labelProblem).toBe('the label “bay 1” is already used for bay 1: type a different one');
    expect(sut.canAccept).toBe(false);
    expect(mappingView(wizard(), { ...noDrafts, labelDraft: { lane: 'lane-2', text: 'Bay 12' } })).toMatchObject({ labelProblem: undefined, canAccept: true });
  });

  it('starts a new slot from the agent’s label, not from what was typed for another slot', () => {
    expect(mappingView(wizard(), { ...noDrafts, labelDraft: { lane: 'lane-1', text: 'Old' } }).proposal?.label).toBe('Bay 2');
  });

  it('offers finishing only once a bay is mapped and no slot waits to be accepted', () => {
    expect(mappingView(wizard(), noDrafts).canFinish).toBe(false);
    expect(mappingView(wizard({ proposal: undefined }), noDrafts).canFinish).toBe(true);
    expect(mappingView(wizard({ proposal: undefined, bays: [] }), noDrafts).canFinish).toBe(false);
  });

  it('asks about drives seated before mapping began, one button each for the bay asked for', () => {
    const [sut] = mappingView(wizard({ proposal: undefined }), noDrafts).preexisting;
    expect(sut).toEqual({ lane: 'lane-9', title: 'WDC WD20EFRX · S/N WX11', slot: 'SAS · 0000:03:00.0 · phy 7', assignText: 'Assign to Bay 2' });
    expect(mappingView(wizard({ proposal: undefined }), noDrafts).canAssign).toBe(true);
  });

  it('lets nothing be skipped or assigned while a slot waits to be accepted', () => {
    const sut = mappingView(wizard(), noDrafts);
    expect([sut.canSkip, sut.canAssign, sut.canUndo]).toEqual([false, false, true]);
  });

  it('has nothing to undo before the first bay', () => {
    expect(mappingView(wizard({ proposal: undefined, bays: [], next_bay: 1 }), noDrafts).canUndo).toBe(false);
  });

  it('counts bays mapped and numbers skipped', () => {
    expect(mappingView(wizard({ skipped: [2], next_bay: 3 }), noDrafts).progress).toBe('1 bay mapped, 1 number skipped');
  });
});

describe('the grid preview', () => {
  it('puts bay N in cell N, row by row, with skipped numbers and the next bay marked', () => {
    const bays = [
      { number: 1, lane: 'a', label: 'Bay 1', connector: sasSlot(0) },
      { number: 3, lane: 'b', label: 'Top right', connector: sasSlot(1) },
    ];
    const sut = previewGrid(wizard({ bays, skipped: [2], next_bay: 4, grid: { rows: 2, columns: 3 } }));
    expect({ rows: sut.rows, columns: sut.columns }).toEqual({ rows: 2, columns: 3 });
    expect(sut.cells.map((c) => c.kind)).toEqual(['mapped', 'skipped', 'mapped', 'next', 'free', 'free']);
    expect(sut.cells[2]?.text).toBe('Top right');
  });

  it('grows by rows when more bays are mapped than the shape has cells', () => {
    const bays = [1, 2, 3].map((n) => ({ number: n, lane: `l${n}`, label: `Bay ${n}`, connector: sasSlot(n) }));
    expect(previewGrid(wizard({ bays, next_bay: 4, grid: { rows: 1, columns: 2 } })).rows).toBe(2);
  });

  it('stops at the controller’s bay count: no "Bay 5", no fifth cell, no skip, once 4 bays of 4 are mapped', () => {
    const bays = [1, 2, 3, 4].map((n) => ({ number: n, lane: `l${n}`, label: `Bay ${n}`, connector: sasSlot(n) }));
    const done = wizard({ bays, next_bay: 5, bay_count: 4, proposal: undefined, preexisting: [] });
    const grid = previewGrid(done);
    expect({ rows: grid.rows, cells: grid.cells.length }).toEqual({ rows: 1, cells: 4 });
    expect(grid.cells.some((c) => c.kind === 'next')).toBe(false);
    const view = mappingView(done, noDrafts);
    expect(view).toMatchObject({ instruction: 'All 4 bays of the controllers are mapped: press Finish mapping', allAsked: true, canSkip: false, canFinish: true });
    // Without a count from the controllers it asks on, as before.
    expect(mappingView(wizard({ bays, next_bay: 5, proposal: undefined }), noDrafts).instruction).toBe('Insert a drive into Bay 5');
  });

  it('marks no next bay once mapping is finished', () => {
    expect(previewGrid(wizard({ step: 'naming', proposal: undefined })).cells.some((c) => c.kind === 'next')).toBe(false);
  });
});

describe('the grid shape form', () => {
  it('takes whole numbers from 1 to 64 only', () => {
    expect(gridFromDraft({ rows: '2', columns: ' 12 ' })).toEqual({ rows: 2, columns: 12 });
    expect(gridFromDraft({ rows: '0', columns: '4' })).toBeUndefined();
    expect(gridFromDraft({ rows: '2.5', columns: '4' })).toBeUndefined();
    expect(gridFromDraft({ rows: '', columns: '4' })).toBeUndefined();
    expect(gridFromDraft({ rows: '65', columns: '4' })).toBeUndefined();
  });

  it('shows the agent’s shape until the operator types one', () => {
    expect(mappingView(wizard(), noDrafts).grid).toEqual({ rows: '1', columns: '4' });
    expect(mappingView(wizard(), { ...noDrafts, gridDraft: { rows: '3', columns: '' } }).grid).toEqual({ rows: '3', columns: '' });
  });
});

describe('naming the map', () => {
  it('saves only a name with something in it, and not twice', () => {
    expect(namingView(wizard({ step: 'naming' }), undefined).canSave).toBe(false);
    expect(namingView(wizard({ step: 'naming' }), 'Front 12-bay').canSave).toBe(true);
    expect(namingView(wizard({ step: 'saving', name: 'Front 12-bay' }), undefined)).toMatchObject({ saving: true, canSave: false });
  });

  it('shows why the last save failed', () => {
    expect(namingView(wizard({ step: 'naming', error: 'cloud unavailable (503)' }), undefined).error).toBe('cloud unavailable (503)');
  });

  it('lists every slot detail it was given, and none it was not', () => {
    expect(connectorFacts({ transport: 'usb', controller: 'xhci', usb_path: '2-1.3' })).toEqual([
      ['Transport', 'USB'],
      ['Controller', 'xhci'],
      ['USB path', '2-1.3'],
    ]);
  });
});
