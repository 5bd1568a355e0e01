import type { FastifyInstance, FastifyReply } from 'fastify';
import { internalApi } from '@erasure/shared';
import type { DeviceDeps, Refusal } from '../../domain/device/deps.js';
import { readBootReport, recordBoot, saveNotes, saveTests } from '../../domain/device/assets.js';
import { lookupChassis, saveChassis } from '../../domain/device/chassis.js';
import { requireActiveToken, verifyToken, validateToken, type LadderOutcome } from '../../domain/device/tokens.js';
import { receiveWipeResult } from '../../domain/device/wipe-results.js';

type Body = Record<string, unknown>;

/** Bodies reach the domain as plain objects; anything else reads as an empty body. */
const asBody = (body: unknown): Body =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};

const NOT_FOUND = { allow: false, status: 'unknown', reason: 'not_found' } as const;

function sendLadder<A extends object>(reply: FastifyReply, outcome: LadderOutcome<A>, allowBody: (a: A) => object) {
  switch (outcome.kind) {
    case 'allow': {
      const { kind: _kind, ...allow } = outcome;
      return reply.code(200).send(allowBody(allow as unknown as A));
    }
    case 'deny':
      return reply.code(403).send(outcome.body);
    case 'not_found':
      return reply.code(404).send(NOT_FOUND);
  }
}

const sendRefusal = (reply: FastifyReply, refusal: Refusal) => reply.code(refusal.status).send({ error: refusal.error });

/**
 * The internal API of spec 4.2, answering exactly the bodies of spec section 7. Registered
 * inside the HMAC-guarded scope; routes take the domain deps as an argument, not a decorator.
 */
export function registerInternalRoutes(scope: FastifyInstance, deps: DeviceDeps): void {
  scope.post(internalApi.verify.url, async (request, reply) =>
    sendLadder(reply, verifyToken(deps, asBody(request.body)), (a) => ({
      allow: true,
      status: 'active',
      account: a.account,
      quota_remaining: a.quota_remaining,
    })),
  );

  scope.post(internalApi.validate.url, async (request, reply) =>
    sendLadder(reply, validateToken(deps, asBody(request.body)), (a) => ({
      allow: true,
      status: 'active',
      quota_remaining: a.quota_remaining,
      job_id: a.job_id,
    })),
  );

  scope.post(internalApi.assets.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    const report = readBootReport(body);
    if (!report.ok) return sendRefusal(reply, report);
    const asset = recordBoot(deps, auth.token, report);
    return reply.code(201).send({ ok: true, asset_id: asset.assetPublicId });
  });

  scope.post(internalApi.notes.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    const saved = saveNotes(deps, auth.token, body);
    return saved.ok ? reply.code(200).send({ ok: true, asset_id: saved.assetId }) : sendRefusal(reply, saved);
  });

  scope.post(internalApi.tests.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    const saved = saveTests(deps, auth.token, body);
    return saved.ok ? reply.code(200).send({ ok: true, asset_id: saved.assetId }) : sendRefusal(reply, saved);
  });

  scope.post(internalApi.wipeResults.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    const received = receiveWipeResult(deps, auth.token, body);
    if (!received.ok) return sendRefusal(reply, received);
    return reply.code(received.created ? 201 : 200).send(received.response);
  });

  scope.post(internalApi.chassisMaps.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    const saved = saveChassis(deps, auth.token, body);
    if (!saved.ok) return sendRefusal(reply, saved);
    return reply.code(201).send({ ok: true, chassis_map_id: saved.chassisMapId, asset_id: saved.assetId });
  });

  scope.post(internalApi.chassisLookup.url, async (request, reply) => {
    const body = asBody(request.body);
    const auth = requireActiveToken(deps, body);
    if (!auth.ok) return sendRefusal(reply, auth);
    return reply.code(200).send(lookupChassis(deps, auth.token, body));
  });
}
