import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import * as validationStore from '../../adapters/db/validation.js';
import { findValidationRate, listLots, listSamples, saveValidationRate } from '../../adapters/db/validation.js';
import { closeValidationLot, DEFAULT_VALIDATION_RATE_PERCENT, VALIDATION_RATE_BOUNDS } from '../../domain/validation/sampling.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

/** `{rate_percent}`: a whole number of percent within the bounds, or why not. */
export function parseValidationRate(body: unknown): { ok: true; rate: number } | { ok: false; error: string } {
  const value = typeof body === 'object' && body !== null ? (body as { rate_percent?: unknown }).rate_percent : undefined;
  const { min, max } = VALIDATION_RATE_BOUNDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return { ok: false, error: `rate_percent must be a whole number from ${min} to ${max}` };
  }
  return { ok: true, rate: value };
}

/**
 * JSON behind `/validation` (issue 29, R2v3 Appendix B): the account's validation rate (admins
 * set it), each lot with its sample size, passes and failures, and the drives picked for
 * validation with their certificate numbers and serials. Admins close a lot, which tops its
 * sample up to the rate rounded up (at least one drive).
 */
export function registerAppValidation(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  app.get('/app/api/validation', { preHandler: requireSession }, async (request) => {
    const { account, user } = sessionOf(request);
    const rate = await findValidationRate(deps.db, account.id);
    const lots = await listLots(deps.db, account.id);
    const byId = new Map(lots.map((lot) => [lot.id, lot.public_id]));
    return {
      rate_percent: rate ?? DEFAULT_VALIDATION_RATE_PERCENT,
      rate_source: rate === undefined ? 'default' : 'account',
      bounds: VALIDATION_RATE_BOUNDS,
      can_edit: user.role === 'admin',
      lots: lots.map((lot) => ({
        id: lot.public_id,
        customer: lot.customer || null,
        lot_reference: lot.lot_reference,
        rate_percent: lot.rate_percent,
        closed_at: lot.closed_at,
        needs_attention: lot.needs_attention === 1,
        certified: lot.certified,
        sample_size: lot.picked,
        passed: lot.passed,
        failed: lot.failed,
        awaiting: lot.picked - lot.passed - lot.failed,
      })),
      samples: (await listSamples(deps.db, account.id)).map((s) => ({
        lot_id: byId.get(s.lot_id) ?? null,
        wipe_result_id: s.wipe_public_id,
        certificate_number: s.certificate_number,
        certificate_id: s.certificate_public_id,
        drive_serial: s.drive_serial,
        drive_model: s.drive_model,
        picked_at: s.picked_at,
        outcome: s.outcome,
        reason: s.reason,
        findings: s.findings,
        validated_at: s.validated_at,
      })),
    };
  });

  app.put('/app/api/validation/rate', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const parsed = parseValidationRate(request.body);
    if (!parsed.ok) return reply.code(422).send({ error: parsed.error });
    await saveValidationRate(deps.db, { accountId: account.id, ratePercent: parsed.rate, userId: user.id, now: deps.clock.now().toISOString() });
    request.log.info({ by: user.publicId, rate_percent: parsed.rate }, 'validation rate changed');
    return { rate_percent: parsed.rate, rate_source: 'account' };
  });

  app.post('/app/api/validation/lots/:id/close', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const { id } = request.params as { id: string };
    const now = deps.clock.now().toISOString();
    const closed = await deps.db.transaction((tx) => closeValidationLot({ db: tx, now, store: validationStore }, account.id, id));
    if (!closed.ok) return reply.code(closed.status).send({ error: closed.error });
    request.log.info({ by: user.publicId, lot: id, picked: closed.picked }, 'validation lot closed');
    return { ok: true, picked: closed.picked };
  });
}
