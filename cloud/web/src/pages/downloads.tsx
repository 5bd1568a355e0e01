import { useEffect, useState } from 'react';
import { getCsrfToken, getJson } from '../api.js';
import { PageHeader } from '../components/ui.js';

interface DownloadsData {
  minting_available: boolean;
  products: ('engine' | 'hotswap')[];
}

/**
 * `/downloads`: each download mints a fresh device token for the signed-in user; the browser
 * saves it as `device-token`, the file the image build embeds at /etc/erasure/device-token.
 * A plain form POST (with the CSRF field) lets the browser handle the attachment itself.
 */
export function DownloadsPage() {
  const [data, setData] = useState<DownloadsData | null>(null);
  useEffect(() => {
    void getJson<DownloadsData>('/app/api/downloads').then(setData);
  }, []);

  return (
    <>
      <PageHeader title="Downloads" subtitle="Boot images for erasure devices" />
      {data && !data.minting_available && (
        <p className="note note-warning" data-testid="minting-unavailable">
          Image downloads are unavailable: minting device tokens is not configured on this server (DEVICE_TOKEN_PRIVATE_KEY).
        </p>
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
              <li>Device token minted for you, valid one year</li>
              <li>Revoke or suspend it any time on the Devices page</li>
            </ul>
            <form method="post" action="/app/api/downloads/device-token">
              <input type="hidden" name="_csrf" value={getCsrfToken()} />
              <input type="hidden" name="product" value={product} />
              <button type="submit" className="button button-primary" disabled={!data?.minting_available} data-testid={`download-${product}`}>
                Download image
              </button>
            </form>
          </section>
        ))}
      </div>
    </>
  );
}
