import { useEffect, useState } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, PageHeader, Pager, type Tone } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import { useQueryState } from '../router.js';
import type { Device, DeviceAction, Me, Page } from '../types.js';
import { AtaMasterPasswordsSettings } from './ata-master-passwords-settings.js';
import { HealthGradingSettings } from './health-grading-settings.js';
import { BrandingSettings } from './branding-settings.js';
import { CertificateLanguageSettings } from './certificate-language-settings.js';
import { ErasurePolicySettings, type AccountPolicy } from './erasure-policy-settings.js';
import { TokenPolicyCell, TokenPolicyEditor } from './token-policy.js';

type DevicesData = Page & { devices: Device[]; scope: 'account' | 'all_accounts' };

const STATUS_TONES: Record<Device['status'], Tone> = { active: 'pass', suspended: 'warning', revoked: 'neutral', disabled: 'fail' };
const LABELS: Record<DeviceAction, string> = {
  suspend: 'Suspend',
  reinstate: 'Reinstate',
  revoke: 'Revoke',
  disable: 'Disable',
  lift_disable: 'Lift kill switch',
};
const CONFIRM: Partial<Record<DeviceAction, string>> = {
  revoke: 'Revoke this device token? Devices using it are denied until an admin reinstates it.',
  disable: 'Pull the kill switch on this token? Only staff can lift it.',
};

/** `/devices`: device tokens, the ISO control column (admins) and the kill switch (staff). */
export function DevicesPage({ me }: { me: Me }) {
  const [params, setParams] = useQueryState();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = params.get('q') ?? '';
  const [data, setData] = useState<DevicesData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [account, setAccount] = useState<AccountPolicy | null>(null);
  const [editing, setEditing] = useState<string | null>(null);

  const load = () =>
    getJson<DevicesData>(`/app/api/devices?page=${page}&q=${encodeURIComponent(q)}`).then(setData, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  useEffect(() => {
    void load();
  }, [page, q]);

  const act = async (device: Device, action: DeviceAction) => {
    const question = CONFIRM[action];
    if (question && !window.confirm(question)) return;
    setBusy(device.jti);
    setError(null);
    try {
      const updated = await sendJson<Device>('POST', `/app/api/devices/${encodeURIComponent(device.jti)}/controls`, { action });
      setData((current) => current && { ...current, devices: current.devices.map((d) => (d.jti === updated.jti ? updated : d)) });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const staff = me.user.role === 'staff';
  const admin = me.user.role === 'admin';
  const columns = staff ? 10 : 9;
  const policySaved = (jti: string, policy: Device['erasure_policy']) => {
    setEditing(null);
    setData((current) => current && { ...current, devices: current.devices.map((d) => (d.jti === jti ? { ...d, erasure_policy: policy } : d)) });
  };
  const controlsTitle = staff ? 'Kill switch' : 'ISO control';
  return (
    <>
      <PageHeader
        title="Devices"
        subtitle={
          data
            ? `${data.count} device token${data.count === 1 ? '' : 's'}${data.scope === 'all_accounts' ? ' across all accounts' : ''}`
            : 'Loading…'
        }
      />
      {staff && (
        <p className="note note-warning">
          Staff view: the kill switch disables a token for every device using it and outranks every other state; account admins cannot lift it.
        </p>
      )}
      <ErrorNote message={error} />
      {!staff && <ErasurePolicySettings onLoaded={setAccount} />}
      {admin && <AtaMasterPasswordsSettings />}
      {admin && <HealthGradingSettings />}
      {admin && <BrandingSettings />}
      {admin && <CertificateLanguageSettings />}
      <div className="toolbar">
        <input
          type="search"
          className="input search"
          placeholder="Search token id, jti, user email or account…"
          aria-label="Search devices"
          defaultValue={q}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setParams({ q: (e.target as HTMLInputElement).value, page: null });
          }}
        />
      </div>
      <div className="table-wrap">
        <table className="table dense" data-testid="devices-table">
          <thead>
            <tr>
              <th>Token</th>
              {staff && <th>Account</th>}
              <th>User</th>
              <th>Product</th>
              <th>Status</th>
              <th className="num">Quota used / limit</th>
              <th>Last seen</th>
              <th>Created</th>
              <th>Erasure policy</th>
              <th>{controlsTitle}</th>
            </tr>
          </thead>
          <tbody>
            {data?.devices.map((device) => [
              <tr key={device.jti} data-jti={device.jti}>
                <td>
                  <div className="strong mono">{device.prefix_id}</div>
                  <div className="muted mono small" title={device.jti}>
                    {device.jti}
                  </div>
                </td>
                {staff && <td>{device.account_name}</td>}
                <td>{device.user_email ?? '—'}</td>
                <td>{device.product === 'hotswap' ? 'Hotswap station' : 'Engine'}</td>
                <td>
                  <Badge tone={STATUS_TONES[device.status]}>{device.status[0]!.toUpperCase() + device.status.slice(1)}</Badge>
                </td>
                <td className="num">
                  {device.use_count} / {device.quota_limit ?? '∞'}
                </td>
                <td className="nowrap">{device.last_seen_at ? formatDateTime(device.last_seen_at) : <span className="muted">Never</span>}</td>
                <td className="nowrap">{formatDateTime(device.created_at)}</td>
                <td>
                  <TokenPolicyCell policy={device.erasure_policy} methods={account?.methods ?? []} />
                  {admin && account && (
                    <button type="button" className="button button-small" onClick={() => setEditing(editing === device.jti ? null : device.jti)} data-testid="token-policy-edit">
                      {editing === device.jti ? 'Close' : 'Contract…'}
                    </button>
                  )}
                </td>
                <td className="actions">
                  {device.controls.length === 0 && <span className="muted">{device.status === 'disabled' ? 'Disabled by staff' : '—'}</span>}
                  {device.controls.map((action) => (
                    <button
                      key={action}
                      type="button"
                      className={`button button-small ${action === 'revoke' || action === 'disable' ? 'button-danger' : ''}`}
                      disabled={busy === device.jti}
                      onClick={() => void act(device, action)}
                    >
                      {LABELS[action]}
                    </button>
                  ))}
                </td>
              </tr>,
              editing === device.jti && account && (
                <tr key={`${device.jti}-policy`} className="policy-row">
                  <td colSpan={columns}>
                    <TokenPolicyEditor device={device} account={account} onSaved={(policy) => policySaved(device.jti, policy)} />
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
        {data && data.devices.length === 0 && <p className="empty">No device tokens yet. Download an image on the Downloads page to mint one.</p>}
      </div>
      <div className="table-footer">
        <span />
        {data && <Pager page={data.page} pages={data.pages} onPage={(p) => setParams({ page: p === 1 ? null : String(p) })} />}
      </div>
    </>
  );
}
