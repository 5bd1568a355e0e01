import { useEffect, useRef } from 'react';
import type { WizardAction, WizardView } from '../../contract.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { gridFromDraft, mappingView, namingView, previewGrid, type MappingView } from './wizard-view-model.js';

/** The mapping wizard: bay by bay while mapping, then the map's name. */
export function WizardScreen({ wizard }: { wizard: WizardView }) {
  return (
    <div className="wizard" data-screen="station-wizard" data-step={wizard.step}>
      {wizard.step === 'mapping' && <MappingStep wizard={wizard} />}
      {(wizard.step === 'naming' || wizard.step === 'saving') && <NamingStep wizard={wizard} />}
      {wizard.step === 'saved' && (
        <p className="banner ok" role="status">
          Map “{wizard.name}” saved. Opening the bay view…
        </p>
      )}
    </div>
  );
}

const useWizardStep = () => {
  const actions = useActions();
  return (step: WizardAction) => void actions.station({ type: 'station_wizard', step });
};

function MappingStep({ wizard }: { wizard: WizardView }) {
  const busy = useKiosk((s) => s.station.busy);
  const labelDraft = useKiosk((s) => s.station.labelDraft);
  const gridDraft = useKiosk((s) => s.station.gridDraft);
  const send = useWizardStep();
  const v = mappingView(wizard, { labelDraft, gridDraft, nameDraft: undefined });
  return (
    <div className="wizard-columns">
      <div className="wizard-main">
        <p className="instruction" role="status" aria-live="polite">
          {v.instruction}
        </p>
        <p className="muted small">{v.progress}. Put one drive into each bay in turn; the slot it lands in is shown here to label.</p>
        {v.proposal ? <Proposal proposal={v.proposal} problem={v.labelProblem} busy={busy} /> : !v.allAsked && <p className="waiting">Waiting for a drive…</p>}
        <div className="row">
          <button type="button" onClick={() => send({ action: 'skip' })} disabled={busy || !v.canSkip}>
            Skip this bay
          </button>
          <button type="button" onClick={() => send({ action: 'undo' })} disabled={busy || !v.canUndo}>
            Undo
          </button>
          <button type="button" id="finish-mapping" className="primary" onClick={() => send({ action: 'finish' })} disabled={busy || !v.canFinish}>
            Finish mapping
          </button>
        </div>
        {v.preexisting.length > 0 && <Preexisting view={v} busy={busy} />}
      </div>
      <div className="wizard-side">
        <h2>Chassis so far</h2>
        <GridPreview wizard={wizard} />
        <GridForm grid={v.grid} busy={busy} current={wizard.grid} />
        <h2 className="section-title">Controllers found</h2>
        {v.controllers.length === 0 ? (
          <p className="muted">No storage controllers found.</p>
        ) : (
          <ul className="controller-list">
            {v.controllers.map((c) => (
              <li key={c.controller}>
                <strong>{c.controller}</strong> <span className="muted">{c.text}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** The slot a drive was just seen in, with the label to accept or type over. */
function Proposal({ proposal, problem, busy }: { proposal: NonNullable<MappingView['proposal']>; problem: string | undefined; busy: boolean }) {
  const actions = useActions();
  const input = useRef<HTMLInputElement>(null);
  // A new slot puts the cursor in its label, so the operator can type a name and press Enter.
  useEffect(() => input.current?.focus(), [proposal.lane]);
  return (
    <form
      className="proposal"
      data-lane={proposal.lane}
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy && !problem) void actions.acceptBay(proposal.label);
      }}
    >
      <h2>Drive found{proposal.device ? ` (${proposal.device})` : ''}</h2>
      <dl className="slot-facts">
        {proposal.facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <label htmlFor="bay-label">Label for this bay:</label>
      <div className="row">
        <input
          id="bay-label"
          ref={input}
          value={proposal.label}
          maxLength={60}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? 'bay-label-problem' : undefined}
          onChange={(e) => actions.editBayLabel(proposal.lane, e.target.value)}
        />
        <button type="submit" id="accept-bay" className="primary big" disabled={busy || problem !== undefined}>
          Accept
        </button>
      </div>
      {problem && (
        <p id="bay-label-problem" className="error" role="alert">
          Cannot accept: {problem}.
        </p>
      )}
    </form>
  );
}

/** Drives seated before mapping began: the operator says which bay each is in; none is assigned silently. */
function Preexisting({ view, busy }: { view: MappingView; busy: boolean }) {
  const send = useWizardStep();
  return (
    <section className="preexisting" aria-label="Drives already seated">
      <h2 className="section-title">Drives already seated</h2>
      <p className="muted small">These were in the chassis when mapping began. Assign one when it sits in the bay asked for.</p>
      <ul className="preexisting-list">
        {view.preexisting.map((p) => (
          <li key={p.lane} className="preexisting-item" data-lane={p.lane}>
            <div>
              <strong>{p.title}</strong>
              <div className="muted small">{p.slot}</div>
            </div>
            <button type="button" onClick={() => send({ action: 'assign_preexisting', lane: p.lane })} disabled={busy || !view.canAssign}>
              {p.assignText}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function GridForm({ grid, busy, current }: { grid: MappingView['grid']; busy: boolean; current: WizardView['grid'] }) {
  const actions = useActions();
  const shape = gridFromDraft(grid);
  const changed = shape !== undefined && (shape.rows !== current.rows || shape.columns !== current.columns);
  return (
    <form
      className="grid-form"
      aria-label="Grid shape"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed && !busy) void actions.setGrid();
      }}
    >
      <label htmlFor="grid-rows">Rows</label>
      <input id="grid-rows" type="number" min={1} max={64} value={grid.rows} onChange={(e) => actions.editGrid({ ...grid, rows: e.target.value })} />
      <span aria-hidden="true">×</span>
      <label htmlFor="grid-columns">Columns</label>
      <input id="grid-columns" type="number" min={1} max={64} value={grid.columns} onChange={(e) => actions.editGrid({ ...grid, columns: e.target.value })} />
      <button type="submit" disabled={busy || !changed}>
        Set grid
      </button>
    </form>
  );
}

/** The bays mapped so far, where they sit in the chassis (bay N in cell N, row by row). */
export function GridPreview({ wizard }: { wizard: WizardView }) {
  const g = previewGrid(wizard);
  return (
    <ol className="bay-preview" style={{ gridTemplateColumns: `repeat(${g.columns}, minmax(0, 1fr))` }} aria-label={`Chassis grid, ${g.rows} by ${g.columns}`}>
      {g.cells.map((c) => (
        <li key={c.number} className={`preview-cell ${c.kind}`} data-bay={c.number}>
          <span className="preview-no">{c.number}</span>
          <span className="preview-text">{c.text}</span>
        </li>
      ))}
    </ol>
  );
}

function NamingStep({ wizard }: { wizard: WizardView }) {
  const actions = useActions();
  const busy = useKiosk((s) => s.station.busy);
  const nameDraft = useKiosk((s) => s.station.nameDraft);
  const siteDraft = useKiosk((s) => s.station.siteDraft);
  const send = useWizardStep();
  const v = namingView(wizard, nameDraft, siteDraft);
  return (
    <div className="wizard-columns">
      <form
        className="naming wizard-main"
        onSubmit={(e) => {
          e.preventDefault();
          if (v.canSave && !busy) void actions.saveMap();
        }}
      >
        <p className="instruction">Name this chassis map</p>
        <p className="muted">{v.summary}. A name people recognise, such as the enclosure’s model.</p>
        <label htmlFor="map-name">Map name:</label>
        <div className="row">
          <input id="map-name" value={v.name} maxLength={200} autoComplete="off" disabled={v.saving} onChange={(e) => actions.editMapName(e.target.value)} />
        </div>
        <label htmlFor="map-site">Site (optional), where this station stands:</label>
        <div className="row">
          <input id="map-site" value={v.site} maxLength={100} autoComplete="off" placeholder="e.g. Leeds, floor 2" disabled={v.saving} onChange={(e) => actions.editMapSite(e.target.value)} />
        </div>
        <p className="muted">The floor view in the web app groups this station under its site.</p>
        <div className="row">
          <button type="submit" id="save-map" className="primary big" disabled={busy || !v.canSave}>
            {v.saving ? 'Saving…' : 'Save map'}
          </button>
        </div>
        {v.error && (
          <p className="error" role="alert">
            The map was not saved: {v.error}
          </p>
        )}
        <div className="row">
          <button type="button" onClick={() => send({ action: 'undo' })} disabled={busy || v.saving}>
            Back to mapping
          </button>
        </div>
      </form>
      <div className="wizard-side">
        <h2>Chassis</h2>
        <GridPreview wizard={wizard} />
      </div>
    </div>
  );
}
