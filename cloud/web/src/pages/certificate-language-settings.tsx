import { useEffect, useState } from 'react';
import type { CertificateLanguage, CertificateLanguageView } from '@erasure/shared/contracts';
import { getJson, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

/**
 * The language of the account's certificates and reports, on /devices, admins only (issue 31
 * item 7 part B). A device token minted with its own language keeps that one; certificates
 * already issued keep the language they were drawn in.
 */
export function CertificateLanguageSettings() {
  const [view, setView] = useState<CertificateLanguageView | null>(null);
  const [chosen, setChosen] = useState<CertificateLanguage>('en');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const shown = (v: CertificateLanguageView) => {
    setView(v);
    setChosen(v.language);
  };
  useEffect(() => {
    getJson<CertificateLanguageView>('/app/api/certificate-language').then(shown, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  const save = async () => {
    setError(null);
    setSaved(null);
    try {
      const v = await sendJson<CertificateLanguageView>('PUT', '/app/api/certificate-language', { language: chosen });
      shown(v);
      setSaved(`Saved. Certificates issued from now on are in ${v.languages.find((l) => l.code === v.language)?.name ?? v.language}.`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section className="card" data-testid="certificate-language">
      <h2>Language of your certificates</h2>
      <p className="muted">
        Certificates of Sanitization and Erasure Reports are written in this language. A device token can have its own language, chosen when
        it is made on the Downloads page. Certificates already issued keep their language.
      </p>
      <div className="form-row">
        <label>
          Language
          <select className="input" value={chosen} onChange={(e) => setChosen(e.target.value as CertificateLanguage)} disabled={!view} data-testid="certificate-language-select">
            {(view?.languages ?? []).map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" disabled={!view} onClick={() => void save()} data-testid="certificate-language-save">
          Save language
        </button>
      </div>
      <details className="more">
        <summary>Details</summary>
        <div className="small">
          Only the pages are translated. The signed record attached to each PDF (certificate.json) is the same in every language, and the
          standards’ names (NIST SP 800-88, IEEE 2883) and levels (Clear, Purge, Destroy) stay as the standards spell them. A certificate’s
          language is fixed when it is first made, so making it again gives the same page.
        </div>
      </details>
      {saved && !error && <p className="note note-ok">{saved}</p>}
      <ErrorNote message={error} />
    </section>
  );
}
