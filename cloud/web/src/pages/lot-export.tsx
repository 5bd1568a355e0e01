import { useEffect, useRef, useState } from 'react';
import { getJson, sendJson } from '../api.js';
import { formatDateTime } from '../format.js';

/*
 * Lot files too big for one request (issue 31 item 2): every certificate the grid's filters
 * match, made by a background job in the cloud. The page asks for it, shows the progress line
 * ("Preparing the certificates of 600 drives… 240 of 600") and then the download link, until it expires.
 */

export interface LotExportView {
  id: string;
  format: 'zip' | 'pdf';
  status: 'pending' | 'running' | 'done' | 'failed' | 'expired';
  done: number;
  total: number;
  expires_at: string | null;
  download_url: string | null;
  error: string | null;
}

/** How often the progress line asks the cloud. */
const POLL_MS = 1000;

/** The export in progress (or made) on this page, and how to start one over the grid's filters. */
export function useLotExport() {
  const [current, setCurrent] = useState<LotExportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = current?.id;
  const finished = current ? ['done', 'failed', 'expired'].includes(current.status) : true;
  useEffect(() => {
    if (!id || finished) return;
    const timer = setTimeout(() => {
      getJson<LotExportView>(`/app/api/lot-exports/${encodeURIComponent(id)}`).then(setCurrent, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [id, finished, current]);
  const start = async (format: 'zip' | 'pdf', query: string) => {
    setError(null);
    const filters = Object.fromEntries(new URLSearchParams(query));
    try {
      setCurrent(await sendJson<LotExportView>('POST', '/app/api/lot-exports', { format, filters }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return { current, error, start, dismiss: () => setCurrent(null) };
}

const WHAT = { zip: 'ZIP of PDFs', pdf: 'lot certificate' } as const;

/** The progress line, then the download link (or why there is none). */
export function LotExportStatus({ lot, error, onDismiss }: { lot: LotExportView | null; error: string | null; onDismiss: () => void }) {
  if (error) return <p className="note note-danger" role="alert">The certificates could not be prepared: {error}</p>;
  if (!lot) return null;
  // Counted in drives: a lot lists every matching drive, those without a certificate too.
  const noun = `${lot.total} drive${lot.total === 1 ? '' : 's'}`;
  if (lot.status === 'pending' || lot.status === 'running') {
    return (
      <p className="note note-info lot-export" role="status" data-testid="lot-export-progress">
        Preparing the certificates of {noun}… {lot.done} of {lot.total}
        <progress max={lot.total} value={lot.done} />
        <span className="muted small">You can leave this page; the {WHAT[lot.format]} keeps being made.</span>
      </p>
    );
  }
  if (lot.status === 'done' && lot.download_url) {
    return (
      <p className="note note-ok lot-export" role="status" data-testid="lot-export-ready">
        The {lot.format === 'pdf' ? 'lot certificate' : 'ZIP'} for {noun} is ready.{' '}
        <a href={lot.download_url} download data-testid="lot-export-download">
          Download {lot.format === 'pdf' ? 'the lot certificate (PDF)' : 'the ZIP'}
        </a>
        {lot.expires_at && <span className="muted small"> · the link works until {formatDateTime(lot.expires_at)}</span>}
        <button type="button" className="link-button" onClick={onDismiss}>
          Dismiss
        </button>
      </p>
    );
  }
  return (
    <p className="note note-warning" role="status" data-testid="lot-export-ended">
      {lot.status === 'expired' ? `The download for ${noun} has expired; ask for it again.` : `The ${WHAT[lot.format]} for ${noun} could not be made.`}
      {lot.error && (
        <details>
          <summary>Details</summary>
          <code>{lot.error}</code>
        </details>
      )}
      <button type="button" className="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}

/**
 * "Download certificates (N matching)": when nothing is selected and the filters match more rows
 * than the page holds, the lot covers every match, made in the background.
 */
export function LotExportMenu({ count, query, onStart }: { count: number; query: string; onStart: (format: 'zip' | 'pdf', query: string) => void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: MouseEvent) => {
      if (menu.current && !menu.current.contains(event.target as Node)) menu.current.open = false;
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, []);
  const choose = (format: 'zip' | 'pdf') => {
    if (menu.current) menu.current.open = false;
    onStart(format, query);
  };
  return (
    <details className="menu" ref={menu} data-testid="certificates-menu">
      <summary className="button" title="The certificates of every matching row, in the grid's order, prepared in the background">
        Download certificates ({count} matching) ▾
      </summary>
      <div className="menu-items">
        <button type="button" className="menu-item" onClick={() => choose('zip')} data-testid="lot-export-zip">
          ZIP of PDFs
          <span className="muted small">Prepared in the background; a download link appears here</span>
        </button>
        <button type="button" className="menu-item" onClick={() => choose('pdf')} data-testid="lot-export-pdf">
          Lot certificate (one signed PDF)
          <span className="muted small">A signed summary listing every drive, each certificate attached unchanged</span>
        </button>
      </div>
    </details>
  );
}
