import { useEffect, useRef, useState } from 'react';
import type { KioskAgentState } from '../../contract.js';
import { useActions } from '../../store/use-kiosk.js';

/** The 32 capital letters and digits of a label's PSID; a scanner or a typist may add dashes, spaces or lower case. */
export const psidOf = (typed: string): string => typed.toUpperCase().replace(/[\s-]/g, '');
export const psidValid = (psid: string): boolean => /^[A-Z0-9]{32}$/.test(psid);

/**
 * PSID revert of a locked self-encrypting drive. The PSID stays in this component's own state
 * (never the kiosk store), goes to the agent in one request, and the field is cleared after it.
 */
export function PsidRevert({ device, locked, last, disabled }: { device: string; locked: boolean; last: KioskAgentState['psid_revert']; disabled: boolean }) {
  const actions = useActions();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const errorLine = useRef<HTMLParagraphElement>(null);
  // On a 1024×768 screen the dialog's error falls below the fold; the technician must see it.
  useEffect(() => {
    if (error) errorLine.current?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  const psid = psidOf(typed);
  const mine = last?.device === device ? last : undefined;
  const submit = async () => {
    if (!psidValid(psid)) return;
    setSending(true);
    setError(undefined);
    const res = await actions.psidRevert(device, psid);
    setTyped('');
    setSending(false);
    if (!res.ok) setError(res.error);
    else setOpen(false);
  };
  if (!open) {
    return (
      <div className="psid-revert">
        {locked && (
          <button type="button" data-testid="psid-open" disabled={disabled} onClick={() => setOpen(true)}>
            PSID revert…
          </button>
        )}
        {mine && !mine.running && <p className={mine.ok ? 'ok-line' : 'error'} data-testid="psid-outcome">{mine.words}</p>}
      </div>
    );
  }
  return (
    <form
      className="psid-revert psid-dialog"
      role="dialog"
      aria-label="PSID revert"
      data-testid="psid-dialog"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p>
        <strong>PSID revert erases this drive.</strong> Type or scan the PSID printed on the drive’s label: 32 letters and digits. The drive discards its encryption key (a cryptographic erase) and unlocks; then it can be erased and certified by its method.
      </p>
      <label>
        PSID
        <input
          data-testid="psid-input"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          autoFocus
          maxLength={48}
          placeholder="32 characters from the label"
        />
      </label>
      <p className="muted small" data-testid="psid-count">
        {psid.length} of 32{psid.length > 0 && !psidValid(psid) ? (/[^A-Z0-9]/.test(psid) ? ' · only letters and digits' : '') : ''}
      </p>
      {mine?.running && <p className="muted">PSID revert running…</p>}
      {error && (
        <p className="error" role="alert" data-testid="psid-error" ref={errorLine}>
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" data-testid="psid-submit" disabled={!psidValid(psid) || sending}>
          Revert and unlock
        </button>
        <button type="button" onClick={() => { setTyped(''); setError(undefined); setOpen(false); }} disabled={sending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
