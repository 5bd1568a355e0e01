import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from '../../app.js';
import { parseAgentState, type StationView } from '../../contract.js';
import { goTo, receiveConnection, receiveSnapshot } from '../../store/reducers.js';
import { initialData, type KioskData, type Step } from '../../store/state.js';
import { createKioskStore } from '../../store/store.js';
import { agentState, fakeAgent, manualTimers, stationBay, stationBays, stationWizard } from '../../store/test-fixtures.js';
import { KioskStoreContext } from '../../store/use-kiosk.js';

/** Renders the whole app for a station's state, the way the kiosk would show it. */
function render(station: StationView, opts: { step?: Step; edit?: (d: KioskData) => KioskData } = {}) {
  let data = receiveSnapshot(receiveConnection(initialData, { status: 'live' }), agentState({ station }));
  if (opts.step) data = goTo(data, opts.step);
  if (opts.edit) data = opts.edit(data);
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  // React separates adjacent text nodes with empty comments; they are not what a reader sees.
  return renderToString(createElement(KioskStoreContext.Provider, { value: store }, createElement(App))).replaceAll('<!-- -->', '');
}

/** The HTML of the one bay card for `lane`. */
const card = (html: string, lane: string) => html.match(new RegExp(`<li class="bay"[^>]*data-lane="${lane}"[^>]*>.*?</li>`))?.[0] ?? '';

describe('the station fixtures', () => {
  it('are states the agent could send', () => {
    expect(parseAgentState(agentState({ station: stationBays({ unmapped: [{ device: '/dev/sdq' }] }) }))).toBeDefined();
    expect(parseAgentState(agentState({ station: stationWizard() }))).toBeDefined();
  });
});

describe('the station workspace', () => {
  it('opens on the station, with the top bar as on any machine', () => {
    const html = render(stationBays());
    expect(html).toMatch(/data-screen="station"/);
    expect(html).toMatch(/Unlocked · Acme Refurb/);
    expect(html).toMatch(/Session of 22 Nov 2026, 12:00 UTC/);
  });

  it('lists Station first, then settings, machine, tests and notes, and no Drives or Erase', () => {
    const steps = [...render(stationBays()).matchAll(/<span class="step-no">\d+<\/span> ([^<]+)/g)].map((m) => m[1]);
    expect(steps).toEqual(['Station', 'Station settings', 'Machine', 'Hardware tests', 'Notes']);
  });

  it('shows the station instead of an engine step the station does not have', () => {
    expect(render(stationBays(), { step: 'drives' })).toMatch(/data-screen="bay-view"/);
  });

  it('says it is looking up the bay map before it has one', () => {
    expect(render(stationBays({ phase: 'looking_up' }))).toMatch(/Looking up this chassis’s bay map…/);
  });

  it('says why the station failed', () => {
    expect(render(stationBays({ phase: 'failed', reason: 'chassis map lookup failed: 503' }))).toMatch(/The station could not start: chassis map lookup failed: 503/);
  });

  it('warns above everything when drives cannot be watched', () => {
    expect(render(stationBays({ watching: false, watch_error: 'udevadm not found' }))).toMatch(/role="alert">This station cannot see drives being inserted or pulled: udevadm not found/);
  });

  it('shows the agent’s refusal of the last station intent', () => {
    expect(render(stationBays(), { edit: (d) => ({ ...d, station: { ...d.station, error: 'no drive in that bay to locate' } }) })).toMatch(/The agent refused: no drive in that bay to locate/);
  });
});

describe('the mapping wizard screen', () => {
  const html = render(stationWizard());

  it('asks for the next bay and lists the controllers found', () => {
    expect(html).toMatch(/data-screen="station-wizard"/);
    expect(html).toMatch(/Insert a drive into Bay 2/);
    expect(html).toMatch(/0000:03:00\.0<\/strong> <span class="muted">SAS · Broadcom SAS3008/);
  });

  it('shows the slot just seen with its label to accept or type over', () => {
    expect(html).toMatch(/<dt>Enclosure slot<\/dt><dd>2 \(enclosure 500605b0\)<\/dd>/);
    expect(html).toMatch(/<input id="bay-label"[^>]*value="Bay 2"/);
    expect(html).toMatch(/<button type="submit" id="accept-bay"[^>]*>Accept/);
  });

  it('shows what the operator typed over the proposed label', () => {
    const typed = render(stationWizard(), { edit: (d) => ({ ...d, station: { ...d.station, labelDraft: { lane: 'lane-2', text: 'Top left' } } }) });
    expect(typed).toMatch(/<input id="bay-label"[^>]*value="Top left"/);
  });

  it('refuses a label another bay already has before Accept, saying which bay', () => {
    const typed = render(stationWizard(), { edit: (d) => ({ ...d, station: { ...d.station, labelDraft: { lane: 'lane-2', text: 'bay 1' } } }) });
    expect(typed).toMatch(/<button type="submit" id="accept-bay"[^>]*disabled=""[^>]*>Accept/);
    expect(typed).toMatch(/role="alert">Cannot accept: the label “bay 1” is already used for bay 1: type a different one\.</);
  });

  it('keeps finishing, skipping and assigning off while a slot waits to be accepted', () => {
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Finish mapping/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Skip this bay/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Assign to Bay 2/);
  });

  it('offers finishing once the slot is accepted', () => {
    expect(render(stationWizard({ proposal: undefined }))).toMatch(/<button type="button" id="finish-mapping" class="primary">Finish mapping/);
  });

  it('asks about drives already seated instead of assigning them', () => {
    expect(html).toMatch(/Drives already seated/);
    expect(html).toMatch(/WDC WD20EFRX · S\/N WX11/);
  });

  it('draws the bays mapped so far as a grid, with skipped numbers', () => {
    const sut = render(stationWizard({ proposal: undefined, skipped: [2], next_bay: 3 }));
    expect(sut).toMatch(/<li class="preview-cell mapped" data-bay="1">.*?Bay 1/);
    expect(sut).toMatch(/<li class="preview-cell skipped" data-bay="2">.*?Skipped/);
    expect(sut).toMatch(/<li class="preview-cell next" data-bay="3">/);
    expect(sut).toMatch(/<input id="grid-rows" type="number"[^>]*value="1"/);
    expect(sut).toMatch(/<input id="grid-columns" type="number"[^>]*value="4"/);
  });
});

describe('naming the map', () => {
  it('asks for a name and saves it', () => {
    const html = render(stationWizard({ step: 'naming', proposal: undefined, name: 'Front 4-bay' }));
    expect(html).toMatch(/Name this chassis map/);
    expect(html).toMatch(/<input id="map-name"[^>]*value="Front 4-bay"/);
    expect(html).toMatch(/<button type="submit" id="save-map" class="primary big">Save map/);
  });

  it('shows why the last save failed', () => {
    expect(render(stationWizard({ step: 'naming', proposal: undefined, name: 'x', error: 'cloud unavailable (503)' }))).toMatch(/The map was not saved: cloud unavailable \(503\)/);
  });

  it('cannot be saved twice while saving', () => {
    expect(render(stationWizard({ step: 'saving', proposal: undefined, name: 'Front 4-bay' }))).toMatch(/<button type="submit" id="save-map"[^>]*disabled=""[^>]*>Saving…/);
  });
});

describe('the bay view', () => {
  const html = render(stationBays({ unmapped: [{ device: '/dev/sdq', lane: 'sas-phy9' }] }));

  it('lays the bays out in the map’s grid, each card in its state', () => {
    expect(html).toMatch(/data-screen="bay-view"/);
    expect(html).toMatch(/grid-template-columns:repeat\(5, minmax\(7rem, 1fr\)\)/);
    expect(card(html, 'lane-7')).toMatch(/data-state="passed"[^>]*style="grid-row:2;grid-column:2"/);
    expect([...html.matchAll(/<li class="bay"/g)]).toHaveLength(10);
  });

  it('shows each state in plain words', () => {
    expect(card(html, 'lane-1')).toMatch(/Empty/);
    expect(card(html, 'lane-2')).toMatch(/Drive detected.*SMART health: passed/);
    expect(card(html, 'lane-4')).toMatch(/Checking in with the erasure service…/);
    expect(card(html, 'lane-5')).toMatch(/Erasing.*aria-valuenow="43".*NIST 800-88 Clear, overwrite — pass 1.*42% · 180 MB\/s · 1 h 02 min left/);
    expect(card(html, 'lane-6')).toMatch(/Reading back — 61%/);
    expect(card(html, 'lane-7')).toMatch(/CW-000123/);
    expect(card(html, 'lane-8')).toMatch(/certificate pending/);
    expect(card(html, 'lane-9')).toMatch(/check-in denied: quota_exceeded.*drive untouched/);
    expect(card(html, 'lane-10')).toMatch(/Removed during erase/);
  });

  it('asks before erasing a drive that waits for confirmation', () => {
    expect(card(html, 'lane-3')).toMatch(/<button type="button" class="danger-btn bay-confirm">Erase this drive<\/button><button type="button" class="bay-leave">Leave it/);
  });

  it('offers a cancel while erasing or verifying', () => {
    expect(card(html, 'lane-5')).toMatch(/class="bay-cancel">Cancel/);
    expect(card(html, 'lane-6')).toMatch(/class="bay-cancel">Cancel/);
  });

  it('offers Locate where the enclosure can blink, and says once where it cannot', () => {
    expect(card(html, 'lane-7')).toMatch(/class="bay-locate">Locate/);
    expect(card(html, 'lane-9')).not.toMatch(/bay-locate/);
    expect(card(html, 'lane-9')).toMatch(/title="Bay 9: Failed — This enclosure cannot blink a locate LED"/);
    expect([...html.matchAll(/class="legend-note">This enclosure cannot blink a locate LED/g)]).toHaveLength(1);
  });

  it('lists drives in unmapped slots as never erased', () => {
    expect(html).toMatch(/Drives in unmapped slots \(never erased\).*\/dev\/sdq — slot sas-phy9/);
  });

  it('shows the erase policy', () => {
    expect(html).toMatch(/Each drive waits for confirmation/);
    expect(render(stationBays({ policy: 'auto' }))).toMatch(/class="policy" data-policy="auto">Erase starts on insert/);
  });

  it('shows a lone pulled bay as removed during erase with its phase', () => {
    expect(render(stationBays({ bays: [stationBay(1, { state: 'pulled', reason: 'removed during erase', during: 'verifying', can_locate: false })] }))).toMatch(/Removed during erase.*Pulled while verifying/);
  });
});

describe('station settings', () => {
  const html = render(stationBays(), { step: 'settings' });

  it('switches the erase policy, with the current one pressed', () => {
    expect(html).toMatch(/data-screen="station-settings"/);
    expect(html).toMatch(/data-policy="confirm" aria-pressed="true"/);
    expect(html).toMatch(/data-policy="auto" aria-pressed="false"/);
  });

  it('offers mapping the chassis again', () => {
    expect(html).toMatch(/This chassis uses the map “Front 10-bay” \(2 × 5\)/);
    expect(html).toMatch(/<button type="button" id="remap">Map this chassis again/);
  });
});
