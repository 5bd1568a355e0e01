import type { EditableMetric, HealthGradingGranted, WireHealthRule } from '@erasure/shared/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

/** What /app/api/health-grading answers: the table in force, the account's own or the default. */
interface GradingView {
  health_grading: HealthGradingGranted & { source: 'account' | 'default' };
  /** Every metric in words: the page keeps no copy of them. */
  form: { metrics: EditableMetric[] };
}

const GRADES = ['B', 'C', 'F'] as const;
type Grade = (typeof GRADES)[number];
/** The form: per metric, the threshold typed for each grade ('' = no rule at that grade); a flag's grade in `flag`. */
type Cells = Record<string, { B: string; C: string; F: string; flag: '' | Grade }>;

const GRADE_WORDS: Record<Grade, string> = { B: 'B: used, good', C: 'C: worn', F: 'F: do not resell' };

function cellsOf(metrics: readonly EditableMetric[], rules: readonly WireHealthRule[]): Cells {
  const cells: Cells = {};
  for (const m of metrics) cells[m.metric] = { B: '', C: '', F: '', flag: '' };
  for (const r of rules) {
    const c = cells[r.metric];
    if (!c) continue;
    const value = r.at_least ?? r.at_most;
    c[r.grade] = value === undefined ? '' : String(value);
    if (metrics.find((m) => m.metric === r.metric)?.kind === 'flag') c.flag = r.grade;
  }
  return cells;
}

/** The form back into rules; a typed value that is not a number goes as text, so the cloud names it. */
function rulesOf(metrics: readonly EditableMetric[], cells: Cells): unknown[] {
  return metrics.flatMap((m) => {
    const c = cells[m.metric];
    if (!c) return [];
    if (m.kind === 'flag') return c.flag ? [{ metric: m.metric, grade: c.flag, at_least: 1 }] : [];
    return GRADES.filter((g) => c[g].trim() !== '').map((g) => {
      const typed = c[g].trim();
      const value = /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
      return { metric: m.metric, grade: g, [m.kind === 'slow_percent' ? 'at_most' : 'at_least']: value };
    });
  });
}

/**
 * The account's health grade table for resale and its SMART short self-test switch, on /devices
 * beside the erasure policy, admins only (issue 30 item 6). Each metric gives B, C or F from its
 * threshold; an empty cell is no rule. The cloud checks a save (ranges, order of the grades) and
 * says what is wrong; "Reset to default" goes back to the documented table.
 */
export function HealthGradingSettings() {
  const [view, setView] = useState<GradingView['health_grading'] | null>(null);
  const [metrics, setMetrics] = useState<EditableMetric[]>([]);
  const [cells, setCells] = useState<Cells>({});
  const [selfTest, setSelfTest] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const shown = (v: GradingView) => {
    setView(v.health_grading);
    setMetrics(v.form.metrics);
    setCells(cellsOf(v.form.metrics, v.health_grading.rules));
    setSelfTest(v.health_grading.smart_self_test);
  };
  useEffect(() => {
    getJson<GradingView>('/app/api/health-grading').then(shown, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);

  const write = async (method: 'PUT' | 'DELETE', body: unknown, done: string) => {
    setError(null);
    setSaved(null);
    try {
      shown(await sendJson<GradingView>(method, '/app/api/health-grading', body));
      setSaved(done);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void write('PUT', { rules: rulesOf(metrics, cells), smart_self_test: selfTest }, 'Saved. Machines get it with their erasure policy.');
  };
  const setCell = (metric: string, patch: Partial<Cells[string]>) => setCells((c) => ({ ...c, [metric]: { ...(c[metric] as Cells[string]), ...patch } }));

  return (
    <section className="card" data-testid="health-grading">
      <h2>Health grade for resale</h2>
      <p className="muted">
        Every erased drive gets a grade: A like new, B used and good, C worn, F do not resell. A drive gets the worst grade of the rules it
        matches. Change the thresholds here; an empty cell means no rule at that grade.
      </p>
      {view && (
        <p data-testid="health-grading-status">
          <strong>{view.source === 'account' ? 'Your account’s table is in use' : 'The default table is in use'}</strong>
          {' · '}SMART short self-test {view.smart_self_test ? 'on' : 'off'}
        </p>
      )}
      <form onSubmit={submit} data-testid="health-grading-form">
        <div className="table-wrap">
          <table className="table compact">
            <thead>
              <tr>
                <th>The drive’s</th>
                {GRADES.map((g) => (
                  <th key={g}>{GRADE_WORDS[g]}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {metrics.map((m) => {
                const c = cells[m.metric] as Cells[string];
                return (
                  <tr key={m.metric} data-testid={`grade-rule-${m.metric}`}>
                    <td>{m.words}</td>
                    {m.kind === 'flag' ? (
                      <td colSpan={3}>
                        <select className="input" aria-label={`${m.words}: grade`} value={c.flag} onChange={(e) => setCell(m.metric, { flag: e.target.value as Cells[string]['flag'] })} data-testid={`grade-flag-${m.metric}`}>
                          <option value="">no rule</option>
                          {GRADES.map((g) => (
                            <option key={g} value={g}>
                              {GRADE_WORDS[g]}
                            </option>
                          ))}
                        </select>
                      </td>
                    ) : (
                      GRADES.map((g) => (
                        <td key={g}>
                          {m.kind === 'slow_percent' ? '≤ ' : '≥ '}
                          <input className="input input-narrow" inputMode="numeric" aria-label={`${m.words}: ${g} threshold`} value={c[g]} onChange={(e) => setCell(m.metric, { [g]: e.target.value })} data-testid={`grade-${g}-${m.metric}`} />
                        </td>
                      ))
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <label className="inline-check">
          <input type="checkbox" checked={selfTest} onChange={(e) => setSelfTest(e.target.checked)} data-testid="health-grading-self-test" />
          Run the SMART short self-test on each drive before it is erased (about two minutes, all drives at once; a failed test is a rule above)
        </label>
        <p>
          <button type="submit" className="button button-primary" data-testid="health-grading-save">
            Save grade table
          </button>{' '}
          <button type="button" className="button" onClick={() => void write('DELETE', undefined, 'Back to the default table.')} data-testid="health-grading-reset">
            Reset to default
          </button>
        </p>
      </form>
      <details className="more">
        <summary>Details</summary>
        <div className="small">
          A worse grade needs a worse drive: its threshold must be higher (for the slow zone, lower) than a better grade’s. Counters are read
          after the erase. The grade never changes the erase: an F drive is still erased and certified. Each reason on a report names the
          rule that matched. A self-test that did not finish in time, or that the drive or its USB bridge does not support, is shown and not
          graded.
        </div>
      </details>
      {saved && !error && <p className="note note-ok">{saved}</p>}
      <ErrorNote message={error} />
    </section>
  );
}
