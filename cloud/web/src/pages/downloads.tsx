import { useEffect, useState } from 'react';
import { CERTIFICATE_LANGUAGE_NAMES, CERTIFICATE_LANGUAGES } from '@erasure/shared/contracts';
import { getCsrfToken, getJson } from '../api.js';
import { PageHeader } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import { Link } from '../router.js';
import type { Me } from '../types.js';
import { describeTerms, TokenTermsSettings, type TermsBounds, type TokenTerms } from './token-terms-settings.js';

interface DownloadsData {
  /** Only account admins mint device tokens (and so download images). */
  can_mint: boolean;
  token_terms: TokenTerms;
  token_terms_bounds: TermsBounds;
  minting_available: boolean;
  products: ('engine' | 'hotswap')[];
  gateway_configured: boolean;
  /** PUBLIC_GATEWAY_URL, or null when the server has none. */
  gateway_url: string | null;
  /** This server's images folder (DATA_DIR/images), absolute; null when image downloads are off. */
  images_dir: string | null;
  /** Files in the images folder; `problem` says why one is refused (not ISO 9660). */
  images: { name: string; size_bytes: number; installed_at: string; problem: string | null }[];
  install_help: string;
}

/** How to make an image downloadable, naming this server's folder. */
function InstallHelp({ imagesDir, fallback }: { imagesDir: string | null; fallback: string }) {
  if (imagesDir === null) return <>{fallback}</>;
  return (
    <>
      Build it with <code>npm run iso</code> (it writes <code>iso-build/out/erasure-&lt;version&gt;-amd64.iso</code>), then copy that file into{' '}
      <code data-testid="images-dir">{imagesDir}</code> on this server.
    </>
  );
}

/** What to do with a `device-token` file: bake it into a copy of a base image. */
function TokenFileHelp({ gatewayUrl }: { gatewayUrl: string | null }) {
  return (
    <section className="card" data-testid="token-file-help">
      <h2>Using a device token file</h2>
      <p className="muted">
        &ldquo;Device token only&rdquo; saves a file named <code>device-token</code>. Bake it into a copy of a base image built with <code>npm run iso</code>,
        together with the gateway address devices call:
      </p>
      <pre className="command">
        npx erasure-iso personalize BASE.iso --device-token-file device-token --gateway-url {gatewayUrl ?? 'GATEWAY_URL'} --out erasure-personal.iso
      </pre>
      <p className="muted">
        Then write <code>erasure-personal.iso</code> to a USB stick. The device reads the token from <code>erasure/device-token</code> on the stick and the
        gateway from <code>erasure/gateway-url</code>; a stick without a token stays locked.
      </p>
    </section>
  );
}

/**
 * An image's size in binary units: 0.4 MiB, 812 MiB, 1.2 GiB. A small test image no longer reads
 * "0 MiB"; a size of nothing says no size at all (issue 28, item 16).
 */
export function imageSize(bytes: number | undefined): string | null {
  if (bytes === undefined || !(bytes > 0)) return null;
  const mib = bytes / 1024 ** 2;
  if (mib >= 1024) return `${Math.round((mib / 1024) * 10) / 10} GiB`;
  if (mib >= 10) return `${Math.round(mib)} MiB`;
  return `${Math.max(0.1, Math.round(mib * 10) / 10)} MiB`;
}
const withSize = (label: string, bytes: number | undefined) => {
  const size = imageSize(bytes);
  return size === null ? label : `${label} (${size})`;
};

/**
 * `/downloads`: each download mints a fresh device token for the signed-in admin, on the
 * account's terms (quota, lifetime), which admins set in the card below. "Download image"
 * streams the installed base image with that token and the gateway baked in; "Device token only"
 * saves the `device-token` file for `erasure-iso personalize` or a build of one's own. Plain form
 * POSTs (with the CSRF field) let the browser handle the attachment itself.
 */
export function DownloadsPage({ me }: { me: Me }) {
  const [data, setData] = useState<DownloadsData | null>(null);
  const [image, setImage] = useState('');
  // The file download leaves the page as it was, so the page itself says what happened (issue 28, item 16).
  const [tokenSaved, setTokenSaved] = useState<{ product: 'engine' | 'hotswap'; at: string } | null>(null);
  // The certificate language of the tokens made here (issue 31 item 7 part B); empty: the account's setting.
  const [language, setLanguage] = useState('');
  useEffect(() => {
    void getJson<DownloadsData>('/app/api/downloads').then(setData);
  }, []);
  const usable = data?.images.filter((i) => i.problem === null) ?? [];
  const refused = data?.images.filter((i) => i.problem !== null) ?? [];
  const chosen = image || usable[0]?.name;

  return (
    <>
      <PageHeader title="Downloads" subtitle="Boot images for erasure devices" />
      {data && !data.can_mint && (
        <p className="note" data-testid="admins-only">
          Only account admins can download images and device tokens. Ask an admin of {me.account.name} for one.
        </p>
      )}
      {data && !data.minting_available && (
        <p className="note note-warning" data-testid="minting-unavailable">
          Image downloads are unavailable: minting device tokens is not configured on this server (DEVICE_TOKEN_PRIVATE_KEY).
        </p>
      )}
      {refused.map((i) => (
        <p key={i.name} className="note note-danger" data-testid="image-refused">
          {i.name} {i.problem}
        </p>
      ))}
      {data && usable.length === 0 && (
        <p className="note" data-testid="no-base-image">
          {refused.length > 0 ? 'No usable boot image is installed on this server.' : 'No boot image is installed on this server yet.'}{' '}
          <InstallHelp imagesDir={data.images_dir} fallback={data.install_help} />
        </p>
      )}
      {data && usable.length > 0 && !data.gateway_configured && (
        <p className="note note-warning" data-testid="gateway-unconfigured">
          Image downloads are unavailable: this server does not know the gateway address devices should call. Set <code>PUBLIC_GATEWAY_URL</code> in the
          cloud&rsquo;s environment to the gateway&rsquo;s public address, for example <code>PUBLIC_GATEWAY_URL=https://gateway.example.com</code>, and
          restart the cloud. <code>npm start</code> sets it to the local gateway by itself.
        </p>
      )}
      {usable.length > 1 && (
        <label className="field">
          Image
          <select value={chosen} onChange={(e) => setImage(e.target.value)} data-testid="image-select">
            {usable.map((i) => (
              <option key={i.name} value={i.name}>
                {withSize(i.name, i.size_bytes)}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="grid-2">
        {(['engine', 'hotswap'] as const).map((product) => (
          <section key={product} className="card download-card">
            <h2>{product === 'engine' ? 'Erasure engine' : 'Hotswap station'}</h2>
            <p className="muted">
              {product === 'engine'
                ? 'Boots a machine, audits its hardware and erases its internal drives per NIST SP 800-88.'
                : 'Runs a bay-based station that erases drives inserted into its hotswap bays, one check-in per drive.'}
            </p>
            <ul className="facts">
              <li data-testid={`terms-${product}`}>Device token: {data ? describeTerms(data.token_terms) : '…'}</li>
              <li>Revoke or suspend it any time on the Devices page</li>
            </ul>
            <label className="small">
              Certificate language for this device{' '}
              <select className="input" value={language} onChange={(e) => setLanguage(e.target.value)} data-testid={`token-language-${product}`}>
                <option value="">Your account’s setting</option>
                {CERTIFICATE_LANGUAGES.map((code) => (
                  <option key={code} value={code}>
                    {CERTIFICATE_LANGUAGE_NAMES[code]}
                  </option>
                ))}
              </select>
            </label>
            <div className="download-actions">
              {data && usable.length > 0 && (
                <form method="post" action="/app/api/downloads/image">
                  <input type="hidden" name="_csrf" value={getCsrfToken()} />
                  <input type="hidden" name="product" value={product} />
                  <input type="hidden" name="image" value={chosen} />
                  <input type="hidden" name="language" value={language} />
                  <button type="submit" className="button button-primary" disabled={!data.can_mint || !data.minting_available || !data.gateway_configured} data-testid={`download-${product}`}>
                    {withSize('Download image', usable.find((i) => i.name === chosen)?.size_bytes)}
                  </button>
                </form>
              )}
              <form method="post" action="/app/api/downloads/device-token" onSubmit={() => setTokenSaved({ product, at: new Date().toISOString() })}>
                <input type="hidden" name="_csrf" value={getCsrfToken()} />
                <input type="hidden" name="product" value={product} />
                <input type="hidden" name="language" value={language} />
                <button type="submit" className={usable.length > 0 ? 'button' : 'button button-primary'} disabled={!data?.can_mint || !data.minting_available} data-testid={`download-token-${product}`}>
                  Device token only
                </button>
              </form>
            </div>
            {tokenSaved?.product === product && (
              <p className="note note-ok" role="status" data-testid={`token-saved-${product}`}>
                A new device token was minted at {formatDateTime(tokenSaved.at)}. Your browser saves it as the file <code>device-token</code>; it is
                listed on the <Link href="/devices">Devices</Link> page, where you can suspend or revoke it.
              </p>
            )}
          </section>
        ))}
      </div>
      {data && <TokenFileHelp gatewayUrl={data.gateway_url} />}
      {data?.can_mint && (
        <TokenTermsSettings terms={data.token_terms} bounds={data.token_terms_bounds} onSaved={(token_terms) => setData({ ...data, token_terms })} />
      )}
    </>
  );
}
