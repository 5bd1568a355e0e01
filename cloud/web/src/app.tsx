import { useEffect, useState } from 'react';
import { getJson, setCsrfToken } from './api.js';
import { Layout } from './components/layout.js';
import { ApiTokensPage } from './pages/api-tokens.js';
import { AssetDetailPage } from './pages/asset-detail.js';
import { AssetsPage } from './pages/assets.js';
import { DevicesPage } from './pages/devices.js';
import { DownloadsPage } from './pages/downloads.js';
import { WipesPage } from './pages/wipes.js';
import { FloorPage } from './pages/floor.js';
import { WebhooksPage } from './pages/webhooks.js';
import { ValidationPage } from './pages/validation.js';
import { useLocation } from './router.js';
import type { Me } from './types.js';

/** Every page, by path; the server guards the same list (cloud/src/http/routes/pages.ts SPA_PAGES). */
function route(pathname: string, me: Me) {
  const asset = /^\/assets\/([^/]+)$/.exec(pathname);
  if (asset) return <AssetDetailPage id={decodeURIComponent(asset[1]!)} />;
  switch (pathname) {
    case '/wipes':
      return <WipesPage />;
    case '/assets':
      return <AssetsPage />;
    case '/devices':
      return <DevicesPage me={me} />;
    case '/downloads':
      return <DownloadsPage me={me} />;
    case '/api_tokens':
      return <ApiTokensPage />;
    case '/webhooks':
      return <WebhooksPage />;
    case '/validation':
      return <ValidationPage />;
    case '/floor':
      return <FloorPage />;
    default:
      return <p className="empty">This page does not exist.</p>;
  }
}

export function App() {
  const { pathname } = useLocation();
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getJson<Me>('/app/api/me').then(
      (value) => {
        setCsrfToken(value.csrf_token);
        setMe(value);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, []);

  if (error) return <p className="page-error">Could not load your session: {error}</p>;
  if (!me) return <div className="loading">Loading…</div>;
  return <Layout me={me}>{route(pathname, me)}</Layout>;
}
