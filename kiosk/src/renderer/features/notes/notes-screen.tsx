import { useKiosk, useActions } from '../../store/use-kiosk.js';
import type { SendState } from '../../store/state.js';
import { syncText } from '../hardware-tests/tests-screen.js';
import { NextStep } from '../shell/next-step.js';
import { JobDetailsForm } from './job-details-form.js';

const saveText = (s: SendState) =>
  s.state === 'pending' ? 'Typing… saves when you pause.' : s.state === 'sending' ? 'Saving…' : s.state === 'sent' ? 'Saved.' : s.state === 'failed' ? `Not saved: ${s.error}` : '';

/** Free-text notes about the machine, saved by themselves shortly after typing stops. */
export function NotesScreen() {
  const actions = useActions();
  const draft = useKiosk((s) => s.notes.draft);
  const send = useKiosk((s) => s.notes.send);
  const allowed = useKiosk((s) => s.agent.snapshot?.can.set_notes ?? false);
  const sync = useKiosk((s) => s.agent.snapshot?.reports.notes);
  return (
    <section className="notes">
      <JobDetailsForm allowed={allowed} />
      <label htmlFor="notes">Scratches, missing parts, anything the next person should know:</label>
      <textarea id="notes" value={draft} rows={10} maxLength={20_000} disabled={!allowed} onChange={(e) => actions.editNotes(e.target.value)} />
      <p className={send.state === 'failed' ? 'error' : 'muted'} role="status" aria-live="polite">
        {saveText(send)} {send.state === 'sent' ? syncText(sync) : ''}
      </p>
      <NextStep to="drives" />
    </section>
  );
}
