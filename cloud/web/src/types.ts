/** Shapes of the /app/api answers. Types only: nothing here reaches the bundle. */
export type { WipeView, CertificateCell, SourceCell } from '../../src/domain/wipes/grid.js';
export type { DeviceAction } from '../../src/domain/devices/controls.js';
export type { SubscriptionNotice } from '../../src/domain/accounts/subscription.js';
export type { AssetSummary, AssetDetail } from '@erasure/shared/contracts';

import type { SubscriptionNotice } from '../../src/domain/accounts/subscription.js';
import type { DeviceAction } from '../../src/domain/devices/controls.js';
import type { WipeView } from '../../src/domain/wipes/grid.js';

export type Role = 'admin' | 'technician' | 'staff';

export interface Me {
  user: { id: string; email: string; role: Role };
  account: { id: string; numeric_id: number; name: string; active: boolean };
  subscription: SubscriptionNotice | null;
  csrf_token: string;
  /** Deployment problems to show every signed-in user (e.g. no public URL configured). */
  warnings: string[];
}

export interface Page {
  page: number;
  pages: number;
  count: number;
}

export interface WipesPage extends Page {
  rows: WipeView[];
  page_size: number;
  /** Every status a wipe can have, its wire value and the grid's label (Pass, Fail, Cancelled), for the status filter. */
  statuses: { value: string; label: string }[];
  /** What the customer, lot and method filters offer, over the account's whole history. */
  facets: { customers: string[]; lots: string[]; methods: string[] };
  /** Rows one CSV export holds (the operator's WIPES_CSV_MAX_ROWS). */
  csv_max_rows: number;
  push: { configured: boolean; url: string | null; can_configure: boolean };
}

export interface Device {
  prefix_id: string;
  jti: string;
  account_public_id: string;
  account_name: string;
  user_email: string | null;
  product: 'engine' | 'hotswap';
  status: 'active' | 'revoked' | 'suspended' | 'disabled';
  quota_limit: number | null;
  use_count: number;
  quota_remaining: number | null;
  last_seen_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  created_at: string;
  controls: DeviceAction[];
  /** The token's own erasure policy (a customer's contract); null: the account's applies. */
  erasure_policy: import('./pages/erasure-policy-form.js').ErasurePolicy | null;
}

/** A webhook subscription as /app/api/webhooks shows it. */
export interface Webhook {
  id: string;
  account_id: string;
  event_type: string;
  /** Every event the subscription takes, `event_type` first. */
  event_types: string[];
  url: string;
  auth_type: 'none' | 'bearer' | 'basic';
  basic_username: string | null;
  active: boolean;
  health: 'healthy' | 'failing' | 'auto_disabled' | 'disabled';
  failure_count: number;
  auto_disabled_at: string | null;
  disabled_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_success_at: string | null;
  /** While in the future, the secret before the last rotation signs deliveries too. */
  previous_secret_expires_at: string | null;
  pending_deliveries: number;
  failed_deliveries: number;
  created_at: string;
  updated_at: string;
}

export interface WebhooksPage {
  webhooks: Webhook[];
  can_manage: boolean;
  event_types: string[];
  auth_types: string[];
  allow_http: boolean;
}

/** A delivery ledger row (spec 2) with its attempts. */
export interface WebhookDelivery {
  id: number;
  event_id: string;
  event_type: string;
  payload: unknown;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  response_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: { attempt: number; outcome: 'delivered' | 'failed'; response_code: number | null; error: string | null; duration_ms: number; attempted_at: string }[];
}

export interface ApiKey {
  id: string;
  name: string;
  key_prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
