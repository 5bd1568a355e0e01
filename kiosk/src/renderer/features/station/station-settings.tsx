import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { POLICY_TEXT } from './bay-view-model.js';
import { StationRefusal } from './station-screen.js';

const POLICIES = ['auto', 'confirm'] as const;

const POLICY_HELP: Readonly<Record<(typeof POLICIES)[number], string>> = {
  auto: 'A drive put into a mapped bay is checked in and erased straight away. Drives already seated when the station started still wait for confirmation.',
  confirm: 'A drive put into a mapped bay is shown and waits until someone presses “Erase this drive”.',
};

/** The station's settings: its erase policy, and mapping the chassis again. */
export function StationSettings() {
  const actions = useActions();
  const station = useKiosk((s) => s.agent.snapshot?.station);
  const busy = useKiosk((s) => s.station.busy);
  if (!station) return null;
  return (
    <section className="station-settings" data-screen="station-settings">
      <h2>When a drive is inserted</h2>
      <div className="choice" role="group" aria-label="Erase policy">
        {POLICIES.map((p) => (
          <button key={p} type="button" className={station.policy === p ? 'choice-btn current' : 'choice-btn'} data-policy={p} aria-pressed={station.policy === p} disabled={busy} onClick={() => void actions.station({ type: 'station_policy', policy: p })}>
            <strong>{POLICY_TEXT[p]}</strong>
            <span className="small">{POLICY_HELP[p]}</span>
          </button>
        ))}
      </div>
      <h2 className="section-title">Bay map</h2>
      <p>{station.map ? `This chassis uses the map “${station.map.name}” (${station.map.grid.rows} × ${station.map.grid.columns}).` : 'This chassis has no saved map yet.'}</p>
      <button type="button" id="remap" onClick={() => void actions.remap()} disabled={busy}>
        Map this chassis again
      </button>
      <p className="muted small">The wizard asks for each bay again; saving replaces this chassis’s map.</p>
      <StationRefusal />
    </section>
  );
}
