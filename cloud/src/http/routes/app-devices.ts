import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { findDevice, listDevices, transitionDevice, type DeviceRow } from '../../adapters/db/devices.js';
import type { Role } from '../../adapters/db/users.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { availableControls, decideControl, DEVICE_ACTIONS, type DeviceAction } from '../../domain/devices/controls.js';
import { pageEnvelope, parsePage } from '../../domain/public-api/query.js';
import { readStoredPolicy } from '../../domain/erasure-policy/policy.js';
import { requireSession, sessionOf, type SignedIn } from '../session.js';

export const DEVICES_PAGE_SIZE = 100;

const view = (row: DeviceRow, role: Role) => ({
  ...row,
  // The token's own policy (a customer's contract) as an object; null: the account's applies.
  erasure_policy: row.erasure_policy === null ? null : readStoredPolicy(row.erasure_policy),
  quota_remaining: row.quota_limit === null ? null : Math.max(row.quota_limit - row.use_count, 0),
  controls: availableControls(role, row.status),
});

/**
 * Staff run the fleet-wide kill switch, so they see every account's tokens; everyone else
 * sees their own account's only.
 */
const scopeOf = (signedIn: SignedIn) => (signedIn.user.role === 'staff' ? undefined : signedIn.account.id);

/** JSON behind `/devices`: device tokens, the ISO control column and the staff kill switch. */
export function registerAppDevices(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  app.get('/app/api/devices', { preHandler: requireSession }, async (request) => {
    const signedIn = sessionOf(request);
    const query = request.query as { page?: unknown; q?: unknown };
    const parsed = parsePage(typeof query.page === 'string' ? query.page : undefined);
    const page = parsed.ok ? parsed.value : 1;
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
    const { rows, count } = await listDevices(
      deps.db,
      { accountId: scopeOf(signedIn), search },
      { limit: DEVICES_PAGE_SIZE, offset: (page - 1) * DEVICES_PAGE_SIZE },
    );
    return {
      devices: rows.map((row) => view(row, signedIn.user.role)),
      scope: scopeOf(signedIn) === undefined ? 'all_accounts' : 'account',
      ...pageEnvelope(page, count, DEVICES_PAGE_SIZE),
    };
  });

  /** `{action}`: suspend, reinstate, revoke (admins); disable, lift_disable (staff). */
  app.post('/app/api/devices/:jti/controls', { preHandler: requireSession }, async (request, reply) => {
    const signedIn = sessionOf(request);
    const action = (request.body as { action?: unknown } | undefined)?.action;
    if (typeof action !== 'string' || !(DEVICE_ACTIONS as readonly string[]).includes(action)) {
      return reply.code(422).send({ error: `action must be one of ${DEVICE_ACTIONS.join(', ')}` });
    }
    const { jti } = request.params as { jti: string };
    const device = await findDevice(deps.db, jti);
    const scope = scopeOf(signedIn);
    if (!device || (scope !== undefined && device.account_id !== scope)) return reply.code(404).send({ error: 'unknown token' });
    const decision = decideControl(signedIn.user.role, device.status, action as DeviceAction);
    if (!decision.ok) return reply.code(decision.status).send({ error: decision.error });
    if (!(await transitionDevice(deps.db, jti, decision.from, decision.to, deps.clock.now().toISOString()))) {
      return reply.code(409).send({ error: 'the token changed meanwhile; reload and try again' });
    }
    request.log.info({ jti, action, by: signedIn.user.publicId, from: decision.from, to: decision.to }, 'device token control');
    return view((await findDevice(deps.db, jti))!, signedIn.user.role);
  });
}
