import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

/** What /app/api/ata-master-passwords answers: how many are set and their labels, never a password. */
interface MasterPasswordsView {
  ata_master_passwords: { count: number; labels: (string | null)[]; factory_defaults: boolean };
}

interface Row {
  password: string;
  label: string;
}
const emptyRow = (): Row => ({ password: '', label: '' });

/**
 * The account's ATA master passwords on /devices, admins only (issue 30 item 1): drives that
 * arrive locked with an unknown user password are unlocked with them. Write-only: once saved, the
 * page shows how many are set and their labels; a new save replaces them, "Remove all" drops them.
 */
export function AtaMasterPasswordsSettings() {
  const [view, setView] = useState<MasterPasswordsView['ata_master_passwords'] | null>(null);
  const [rows, setRows] = useState<Row[]>([emptyRow()]);
  const [factory, setFactory] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const shown = (v: MasterPasswordsView) => {
    setView(v.ata_master_passwords);
    setFactory(v.ata_master_passwords.factory_defaults);
    setRows([emptyRow()]);
  };
  useEffect(() => {
    getJson<MasterPasswordsView>('/app/api/ata-master-passwords').then(shown, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);

  const write = async (method: 'PUT' | 'DELETE', body: unknown, done: string) => {
    setError(null);
    setSaved(null);
    try {
      shown(await sendJson<MasterPasswordsView>(method, '/app/api/ata-master-passwords', body));
      setSaved(done);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = rows.filter((r) => r.password !== '' || r.label !== '');
    // No password typed: only the factory-defaults choice changes, the saved passwords stay.
    const body = typed.length > 0 ? { passwords: typed.map((r) => ({ password: r.password, ...(r.label.trim() ? { label: r.label.trim() } : {}) })), factory_defaults: factory } : { factory_defaults: factory };
    void write('PUT', body, typed.length > 0 ? 'Saved. The passwords are not shown again.' : 'Saved.');
  };
  const setRow = (i: number, patch: Partial<Row>) => setRows((current) => current.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <section className="card" data-testid="ata-master-passwords">
      <h2>Master passwords for locked drives</h2>
      <p className="muted">
        Laptops often arrive with a drive locked by a password nobody knows. If your fleet has a master password, enter it here: the
        machines try it to unlock such a drive and then erase it. Passwords are sent only to this account’s machines and are never shown
        again.
      </p>
      {view && (
        <ul className="plain-list" data-testid="ata-master-passwords-status">
          <li>
            <strong>{view.count === 0 ? 'No master passwords set' : `${view.count} master password${view.count === 1 ? '' : 's'} set`}</strong>
            {view.labels.some((l) => l) && `: ${view.labels.map((l, i) => l ?? `password ${i + 1}`).join(', ')}`}
          </li>
          <li>Makers’ factory-default master passwords: {view.factory_defaults ? 'tried too' : 'not tried'}</li>
        </ul>
      )}
      <form onSubmit={submit} data-testid="ata-master-passwords-form">
        {rows.map((row, i) => (
          <div className="form-row" key={i}>
            <label>
              Master password {i + 1}
              <input className="input" type="password" autoComplete="off" value={row.password} onChange={(e) => setRow(i, { password: e.target.value })} data-testid={`ata-master-password-${i}`} />
            </label>
            <label>
              Label (optional)
              <input className="input" type="text" value={row.label} onChange={(e) => setRow(i, { label: e.target.value })} placeholder="e.g. Dell lease fleet" data-testid={`ata-master-label-${i}`} />
            </label>
          </div>
        ))}
        <p>
          <button type="button" className="button" onClick={() => setRows((r) => [...r, emptyRow()])} data-testid="ata-master-add">
            Add another password
          </button>
        </p>
        <label className="inline-check">
          <input type="checkbox" checked={factory} onChange={(e) => setFactory(e.target.checked)} data-testid="ata-master-factory" />
          Also try the makers’ factory-default master passwords
        </label>
        <p className="muted small">Saving with passwords typed replaces every saved one. Leave them empty to change only the factory-default choice.</p>
        <button type="submit" className="button button-primary" data-testid="ata-master-save">
          Save master passwords
        </button>{' '}
        {view && view.count > 0 && (
          <button type="button" className="button" onClick={() => void write('DELETE', undefined, 'All master passwords removed.')} data-testid="ata-master-remove">
            Remove all
          </button>
        )}
      </form>
      <details className="more">
        <summary>Details</summary>
        <div className="small">
          Used only on a drive locked at ATA security level “high”. The account’s passwords are tried first, then, if allowed, the factory
          default for the drive’s make while its master password was never changed. A drive allows five wrong tries per power cycle; the
          machine stops after four. Passwords are at most 32 characters, up to 16 of them; they never appear in a log, a report or a
          certificate.
        </div>
      </details>
      {saved && !error && <p className="note note-ok">{saved}</p>}
      <ErrorNote message={error} />
    </section>
  );
}
