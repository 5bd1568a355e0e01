import type { ReactNode } from 'react';
import { getCsrfToken } from '../api.js';
import { Link, useLocation } from '../router.js';
import type { Me } from '../types.js';

const NAV = [
  { href: '/floor', label: 'Floor' },
  { href: '/wipes', label: 'Wipes' },
  { href: '/assets', label: 'Assets' },
  { href: '/validation', label: 'Validation' },
  { href: '/devices', label: 'Devices' },
  { href: '/downloads', label: 'Downloads' },
  { href: '/api_tokens', label: 'API tokens' },
  { href: '/webhooks', label: 'Webhooks' },
] as const;

const SUBSCRIPTION_LABEL: Record<string, string> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
};

/** The frame of every page: top navigation with the account, the user and sign-out. */
export function Layout({ me, children }: { me: Me; children: ReactNode }) {
  const { pathname } = useLocation();
  const notice = me.subscription;
  return (
    <>
      <header className="topbar">
        <div className="topbar-inner">
          <Link href="/wipes" className="brand">
            <span className="brand-mark" aria-hidden>
              ✓
            </span>
            Erasure
          </Link>
          <nav className="nav" aria-label="Main">
            {NAV.map((item) => (
              <Link
                key={item.href}
                href={item.href}
                className={pathname === item.href || pathname.startsWith(`${item.href}/`) ? 'nav-link active' : 'nav-link'}
              >
                {item.label}
              </Link>
            ))}
          </nav>
          <div className="account">
            <div className="account-text">
              <span className="account-name" data-testid="account-name">
                {me.account.name}
              </span>
              <span className="account-user">
                {me.user.email} · {me.user.role}
              </span>
            </div>
            {notice && (
              <span className={`pill pill-${notice.tone}`} title={notice.message} data-testid="subscription">
                {SUBSCRIPTION_LABEL[notice.status] ?? notice.status}
              </span>
            )}
            <form method="post" action="/logout">
              <input type="hidden" name="_csrf" value={getCsrfToken()} />
              <button type="submit" className="button button-ghost">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      {notice && notice.tone !== 'ok' && (
        <div className={`banner banner-${notice.tone}`} role="status">
          {notice.message}
        </div>
      )}
      {me.warnings.map((warning) => (
        <div key={warning} className="banner banner-warning" role="alert" data-testid="deployment-warning">
          {warning}
        </div>
      ))}
      <main className="content">{children}</main>
    </>
  );
}
