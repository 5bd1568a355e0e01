import { useKiosk } from '../../store/use-kiosk.js';
import { JobDetailsForm } from '../notes/job-details-form.js';
import { BayView } from './bay-view.js';
import { stationNotice, watchWarning } from './bay-view-model.js';
import { WizardScreen } from './wizard-screen.js';

/**
 * The station step: the mapping wizard while the chassis has no map, then the bay view; before
 * either, what the station is doing. A station that cannot watch drives says so above all of it.
 */
export function StationScreen() {
  const station = useKiosk((s) => s.agent.snapshot?.station);
  if (!station) return null;
  const notice = stationNotice(station);
  const warning = watchWarning(station);
  return (
    <section className="station" aria-label="Station">
      {warning && (
        <p className="banner bad" role="alert">
          {warning}
        </p>
      )}
      {notice && (
        <p className={`banner ${notice.tone}`} role="status" data-screen="station-status">
          {notice.text}
        </p>
      )}
      {!notice && station.phase === 'wizard' && station.wizard && <WizardScreen wizard={station.wizard} />}
      {!notice && station.phase === 'bays' && <BayView station={station} />}
      {/* Issue 31 item 6: the station's boot record is the one every bay's wipe result names, so
          the details saved here go on each drive whose result is reported after the save. */}
      {!notice && station.phase === 'bays' && (
        <details className="station-job-details" data-testid="station-job-details">
          <summary>Customer, lot and asset tag for all new drives</summary>
          <JobDetailsForm allowed scope="station" />
        </details>
      )}
      <StationRefusal />
    </section>
  );
}

/** The agent's refusal of the last station intent, in its words. */
export function StationRefusal() {
  const error = useKiosk((s) => s.station.error);
  return error ? (
    <p className="error" role="alert">
      The agent refused: {error}
    </p>
  ) : null;
}
