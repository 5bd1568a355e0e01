import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { JOB_DETAIL_FIELDS, JOB_DETAIL_LABELS, jobDetailProblem, type JobChoices, type JobDetailField, type KioskJobDetails } from '../../contract.js';
import { useActions } from '../../store/use-kiosk.js';

type Drafts = Record<JobDetailField, string>;
type Outcome = { readonly state: 'idle' | 'saving' } | { readonly state: 'saved'; readonly text: string } | { readonly state: 'refused'; readonly text: string };

const HINTS: Record<JobDetailField, string> = { customer: 'Who the machine is processed for', lot_reference: 'Scan the lot barcode, or type it', asset_tag: 'Scan the asset tag, or type it' };

/** Why the drafts cannot be sent, in plain words, before asking the service; undefined when they can. */
export function draftProblem(drafts: Drafts, choices: JobChoices | undefined): string | undefined {
  for (const field of JOB_DETAIL_FIELDS) {
    const problem = jobDetailProblem(field, drafts[field]);
    if (problem) return problem;
  }
  if (choices && !choices.free_entry) {
    for (const [field, list] of [['customer', choices.customers], ['lot_reference', choices.lots]] as const) {
      const value = drafts[field].trim();
      if (value !== '' && !list.includes(value)) return `${JOB_DETAIL_LABELS[field]} "${value}" is not one of this account's; pick one from the list.`;
    }
  }
  return undefined;
}

/** Whose drives the details go on: this machine's (the Notes step), or every drive a station erases from now on. */
export type JobDetailsScope = 'machine' | 'station' | 'bay';

const SCOPE_SUBJECT: Record<JobDetailsScope, string> = { machine: "This machine's drives", station: 'Drives erased from now on', bay: 'This drive' };

const savedText = (saved: { customer: string | null; lot_reference: string | null; asset_tag: string | null }, scope: JobDetailsScope) =>
  `Saved. ${SCOPE_SUBJECT[scope]} ${scope === 'bay' ? 'goes' : 'go'} on ${[saved.customer && `customer ${saved.customer}`, saved.lot_reference && `lot ${saved.lot_reference}`, saved.asset_tag && `asset tag ${saved.asset_tag}`].filter(Boolean).join(', ') || 'no customer or lot'}.`;

/**
 * Customer, lot and asset tag of this machine (issue 31 item 6). A USB barcode scanner types like
 * a keyboard and ends with Enter: Enter saves what is typed and moves to the next field, so a
 * technician can scan lot, then asset tag, without touching the screen.
 */
export function JobDetailsForm({ allowed, scope = 'machine', driveSerial, idPrefix = 'job' }: { allowed: boolean; scope?: JobDetailsScope; driveSerial?: string; idPrefix?: string }) {
  const actions = useActions();
  const [drafts, setDrafts] = useState<Drafts>({ customer: '', lot_reference: '', asset_tag: '' });
  const [choices, setChoices] = useState<JobChoices | undefined>(undefined);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const inputs = useRef<Partial<Record<JobDetailField, HTMLInputElement | null>>>({});

  useEffect(() => {
    let live = true;
    void actions.jobChoices().then((c) => live && setChoices(c));
    return () => {
      live = false;
    };
  }, [actions]);

  const save = async (current: Drafts) => {
    const problem = draftProblem(current, choices);
    if (problem) return setOutcome({ state: 'refused', text: problem });
    setOutcome({ state: 'saving' });
    const details: KioskJobDetails = { customer: current.customer.trim(), lot_reference: current.lot_reference.trim(), asset_tag: current.asset_tag.trim(), ...(driveSerial ? { drive_serial: driveSerial } : {}) };
    const r = await actions.saveJobDetails(details);
    setOutcome(r.ok ? { state: 'saved', text: savedText(r.saved, scope) } : { state: 'refused', text: r.error });
  };

  const onKey = (field: JobDetailField) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void save(drafts);
    const next = JOB_DETAIL_FIELDS[JOB_DETAIL_FIELDS.indexOf(field) + 1];
    if (next) inputs.current[next]?.focus();
  };

  const listOf = (field: JobDetailField) => (field === 'customer' ? choices?.customers : field === 'lot_reference' ? choices?.lots : undefined);
  return (
    <fieldset className="job-details" aria-label="Job details">
      <legend>Job details</legend>
      {JOB_DETAIL_FIELDS.map((field) => (
        <div key={field} className="job-field">
          <label htmlFor={`${idPrefix}-${field}`}>{JOB_DETAIL_LABELS[field]}</label>
          <input
            id={`${idPrefix}-${field}`}
            ref={(el) => void (inputs.current[field] = el)}
            value={drafts[field]}
            placeholder={HINTS[field]}
            list={listOf(field) ? `${idPrefix}-${field}-list` : undefined}
            autoComplete="off"
            disabled={!allowed}
            onChange={(e) => setDrafts({ ...drafts, [field]: e.target.value })}
            onKeyDown={onKey(field)}
          />
          {listOf(field) && (
            <datalist id={`${idPrefix}-${field}-list`}>
              {listOf(field)!.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          )}
        </div>
      ))}
      <p className="muted">{choices && !choices.free_entry ? 'Pick the customer and lot from the list.' : scope === 'bay' ? 'Leave a field empty to keep what is set for all new drives.' : 'Leave a field empty to keep this boot image’s customer and lot.'}</p>
      <button type="button" disabled={!allowed || outcome.state === 'saving'} onClick={() => void save(drafts)}>
        Save job details
      </button>
      <p className={outcome.state === 'refused' ? 'error' : 'muted'} role="status" aria-live="polite" data-testid="job-details-status">
        {outcome.state === 'saving' ? 'Saving…' : outcome.state === 'saved' || outcome.state === 'refused' ? (outcome.state === 'refused' ? `Not saved: ${outcome.text}` : outcome.text) : ''}
      </p>
    </fieldset>
  );
}
