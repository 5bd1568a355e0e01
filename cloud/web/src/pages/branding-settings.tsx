import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendFile, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

/** What /app/api/branding answers. */
interface BrandingView {
  branding: {
    company_name: string | null;
    address_lines: string[];
    contact: string | null;
    logo: { type: 'png' | 'jpeg'; sha256: string; href: string } | null;
    updated_at: string | null;
  };
  rules: { logo_max_bytes: number; logo_min_pixels: number; logo_max_pixels: number };
}

/**
 * The account's own logo and company details on its certificates, on /devices, admins only
 * (issue 31 item 7). They appear on the certificates issued from then on, on both PDFs and on the
 * verify page, beside the account's name; the certificates stay signed by the erasure service.
 */
export function BrandingSettings() {
  const [view, setView] = useState<BrandingView | null>(null);
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [contact, setContact] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const shown = (v: BrandingView) => {
    setView(v);
    setName(v.branding.company_name ?? '');
    setAddress(v.branding.address_lines.join('\n'));
    setContact(v.branding.contact ?? '');
  };
  useEffect(() => {
    getJson<BrandingView>('/app/api/branding').then(shown, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);

  const run = async (work: () => Promise<BrandingView>, done: string) => {
    setError(null);
    setSaved(null);
    try {
      shown(await work());
      setSaved(done);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const details = { company_name: name, address_lines: address.split('\n').filter((l) => l.trim() !== ''), contact };
    void run(() => sendJson<BrandingView>('PUT', '/app/api/branding', details), 'Saved. Certificates issued from now on carry these details.');
  };
  const upload = () => {
    if (!file) return;
    void run(() => sendFile<BrandingView>('/app/api/branding/logo', file), 'Logo uploaded. Certificates issued from now on carry it.');
  };
  const logo = view?.branding.logo;
  const maxKb = view ? view.rules.logo_max_bytes / 1024 : 512;

  return (
    <section className="card" data-testid="branding">
      <h2>Your logo and company details on certificates</h2>
      <p className="muted">
        Your customers see your logo and your company’s name, address and contact at the top of each Certificate of Sanitization, each
        Erasure Report and the page its QR code opens. The certificates stay signed by the erasure service. Certificates already issued
        keep what they were issued with.
      </p>
      <div className="form-row" data-testid="branding-logo">
        {logo ? <img src={logo.href} alt="Your logo" className="branding-logo" data-testid="branding-logo-preview" /> : <span className="muted">No logo yet</span>}
        <label>
          Logo (PNG or JPEG, up to {maxKb} KB)
          <input className="input" type="file" accept="image/png,image/jpeg" onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="branding-logo-file" />
        </label>
        <button type="button" className="button" disabled={!file} onClick={upload} data-testid="branding-logo-upload">
          Upload logo
        </button>
        {logo && (
          <button type="button" className="button" onClick={() => void run(() => sendJson<BrandingView>('DELETE', '/app/api/branding/logo'), 'Logo removed.')} data-testid="branding-logo-remove">
            Remove logo
          </button>
        )}
      </div>
      <form onSubmit={submit} data-testid="branding-form">
        <div className="form-row">
        <label className="grow">
          Company name
          <input className="input" type="text" value={name} onChange={(e) => setName(e.target.value)} data-testid="branding-name" />
        </label>
        <label className="grow">
          Address (up to three lines)
          <textarea className="input" rows={3} value={address} onChange={(e) => setAddress(e.target.value)} data-testid="branding-address" />
        </label>
        <label className="grow">
          Contact (phone, email or web address)
          <input className="input" type="text" value={contact} onChange={(e) => setContact(e.target.value)} data-testid="branding-contact" />
        </label>
        </div>
        <p>
          <button type="submit" className="button button-primary" data-testid="branding-save">
            Save company details
          </button>{' '}
          {view && (view.branding.company_name || logo) && (
            <button type="button" className="button" onClick={() => void run(() => sendJson<BrandingView>('DELETE', '/app/api/branding'), 'Branding removed.')} data-testid="branding-remove">
              Remove branding
            </button>
          )}
        </p>
      </form>
      <details className="more">
        <summary>Details</summary>
        <div className="small">
          The logo is checked by its contents: a PNG or JPEG file of at most {maxKb} KB, each side between {view?.rules.logo_min_pixels ?? 16} and{' '}
          {view?.rules.logo_max_pixels ?? 4096} pixels. The logo and details are drawn on the pages and attached to the PDFs as
          issuer-branding.json; they are not part of the signed record, and the PDF signature covers them.
        </div>
      </details>
      {saved && !error && <p className="note note-ok">{saved}</p>}
      <ErrorNote message={error} />
    </section>
  );
}
