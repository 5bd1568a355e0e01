import type { TokenStatus } from '@erasure/shared';
import type { Role } from '../../adapters/db/users.js';

/** The ISO control column (admins) and the kill switch (staff) of spec 3, as intents. */
export const DEVICE_ACTIONS = ['suspend', 'reinstate', 'revoke', 'disable', 'lift_disable'] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

export type ControlDecision =
  | { ok: true; from: TokenStatus; to: TokenStatus }
  | { ok: false; status: 403 | 409; error: string };

const ADMIN_MOVES: Record<'suspend' | 'reinstate' | 'revoke', { from: readonly TokenStatus[]; to: TokenStatus }> = {
  suspend: { from: ['active'], to: 'suspended' },
  reinstate: { from: ['suspended', 'revoked'], to: 'active' },
  revoke: { from: ['active', 'suspended'], to: 'revoked' },
};

/**
 * Which move a user may make on a token in `current` state. The kill switch outranks every
 * other state: only staff set or lift `disabled`, and an admin control on a disabled token is
 * refused here, on the server, whatever the page shows. Lifting the kill switch leaves the
 * token `suspended` rather than `active` (the state before it is not recorded), so the account
 * admin decides deliberately whether it works again; this never grants more than an admin has.
 */
export function decideControl(role: Role, current: TokenStatus, action: DeviceAction): ControlDecision {
  if (action === 'disable' || action === 'lift_disable') {
    if (role !== 'staff') return { ok: false, status: 403, error: 'only staff can use the kill switch' };
    if (action === 'disable') {
      return current === 'disabled' ? { ok: false, status: 409, error: 'token is already disabled' } : { ok: true, from: current, to: 'disabled' };
    }
    return current === 'disabled' ? { ok: true, from: current, to: 'suspended' } : { ok: false, status: 409, error: 'token is not disabled' };
  }
  if (role !== 'admin') return { ok: false, status: 403, error: 'only account admins can change device tokens' };
  if (current === 'disabled') return { ok: false, status: 403, error: 'token disabled by staff: only staff can lift the kill switch' };
  const move = ADMIN_MOVES[action];
  if (!move.from.includes(current)) return { ok: false, status: 409, error: `cannot ${action} a ${current} token` };
  return { ok: true, from: current, to: move.to };
}

/** The controls a page should offer a role for a token in `current` state. */
export function availableControls(role: Role, current: TokenStatus): DeviceAction[] {
  return DEVICE_ACTIONS.filter((action) => decideControl(role, current, action).ok);
}
