import type { TSchema } from '@fastify/type-provider-typebox';
import { describe, expect, it } from 'vitest';
import { conforms, gatewayApi, internalApi } from '@erasure/shared';
import { WRITES, validateAllow, verifyAllow } from '../../test/support/bodies.js';
import type { CloudAnswer } from '../forward.js';
import { forwardedBody } from '../forward.js';
import { FORWARDED_ROUTES, type DeviceAnswer } from './answers.js';

const answered = (status: number, body: unknown): CloudAnswer => ({ kind: 'answered', status, body });
const unreachable: CloudAnswer = { kind: 'unavailable', cause: 'ECONNREFUSED' };
const UNAVAILABLE = { status: 503, body: { allow: false, reason: 'validation_unavailable' } };
const revoked = { allow: false, status: 'revoked', reason: 'revoked', quota_remaining: 0 };
const notFound = { allow: false, status: 'unknown', reason: 'not_found' };

/** The descriptor's schema for this status, when the contract lists one. */
function responseSchema(route: { response: Readonly<Record<number, TSchema>> }, status: number): TSchema | undefined {
  return route.response[status];
}

// Spec 7 rows for verify/check-in, one sentence per table row.
describe('cloud answers on the ladder routes', () => {
  const rows: [string, CloudAnswer, Pick<DeviceAnswer, 'status' | 'body'>][] = [
    ['an allow becomes the gateway allow', answered(200, verifyAllow), { status: 200, body: { allow: true, account: 'Acme Recyclers', quota_remaining: 12 } }],
    ['a 403 denial keeps its status and reason', answered(403, revoked), { status: 403, body: { allow: false, reason: 'revoked' } }],
    ['a 404 not_found keeps its status', answered(404, notFound), { status: 404, body: { allow: false, reason: 'not_found' } }],
    ['a denial sent with 200 becomes 403', answered(200, revoked), { status: 403, body: { allow: false, reason: 'revoked' } }],
    ['a denial sent with 500 becomes 403', answered(500, revoked), { status: 403, body: { allow: false, reason: 'revoked' } }],
    ['an unreachable cloud is validation_unavailable', unreachable, UNAVAILABLE],
    ['a 401 (our signature refused) is validation_unavailable', answered(401, { error: 'unauthorized' }), UNAVAILABLE],
    ['a 500 is validation_unavailable', answered(500, { error: 'boom' }), UNAVAILABLE],
    ['a non-JSON answer is validation_unavailable', answered(200, undefined), UNAVAILABLE],
    ['an allow with extra fields is validation_unavailable', answered(200, { ...verifyAllow, admin: true }), UNAVAILABLE],
    ['an allow with a negative quota is validation_unavailable', answered(200, { ...verifyAllow, quota_remaining: -1 }), UNAVAILABLE],
    ['a gateway-only reason from the cloud is validation_unavailable', answered(403, { ...revoked, reason: 'validation_unavailable' }), UNAVAILABLE],
  ];

  it.each(rows)('verify: %s', (_row, cloud, expected) => {
    expect(FORWARDED_ROUTES.verify.answer(cloud)).toMatchObject(expected);
  });

  it('check-in: an allow carries job_id and drops the cloud status', () => {
    expect(FORWARDED_ROUTES.checkin.answer(answered(200, validateAllow))).toEqual({
      status: 200,
      body: { allow: true, job_id: validateAllow.job_id, quota_remaining: 11 },
    });
  });

  it('check-in: an allow without job_id is validation_unavailable', () => {
    const { job_id: _dropped, ...noJob } = validateAllow;
    expect(FORWARDED_ROUTES.checkin.answer(answered(200, noJob))).toMatchObject(UNAVAILABLE);
  });

  it('verify: a check-in-shaped allow is validation_unavailable (the asymmetry is fixed)', () => {
    expect(FORWARDED_ROUTES.verify.answer(answered(200, validateAllow))).toMatchObject(UNAVAILABLE);
  });

  it.each([
    ['verify', FORWARDED_ROUTES.verify, gatewayApi.verify, [answered(200, verifyAllow), answered(403, revoked), answered(404, notFound), unreachable]],
    ['checkin', FORWARDED_ROUTES.checkin, gatewayApi.checkin, [answered(200, validateAllow), answered(403, revoked), answered(404, notFound), unreachable]],
  ] as const)('%s answers satisfy the gateway contract for their status', (_name, route, descriptor, clouds) => {
    for (const cloud of clouds) {
      const { status, body } = route.answer(cloud);
      const schema = responseSchema(descriptor, status);
      expect(schema, `status ${status}`).toBeDefined();
      expect(conforms(schema as TSchema, body), `status ${status}`).toBe(true);
    }
  });
});

// Spec 7 "cloud rejected a write" and the 2xx pass-through, for every write route.
describe.each([
  ['record', FORWARDED_ROUTES.record, gatewayApi.record],
  ['notes', FORWARDED_ROUTES.notes, gatewayApi.notes],
  ['tests', FORWARDED_ROUTES.tests, gatewayApi.tests],
  ['wipe_result', FORWARDED_ROUTES.wipeResult, gatewayApi.wipeResult],
  ['chassis_map', FORWARDED_ROUTES.chassisMap, gatewayApi.chassisMap],
  ['chassis_map/lookup', FORWARDED_ROUTES.chassisLookup, gatewayApi.chassisLookup],
  ['certificates/lookup', FORWARDED_ROUTES.certificatesLookup, gatewayApi.certificatesLookup],
  ['validation', FORWARDED_ROUTES.validationReport, gatewayApi.validationReport],
] as const)('cloud answers on %s', (_name, route, descriptor) => {
  const write = WRITES.find((w) => w.path === descriptor.url);
  if (!write) throw new Error(`no sample for ${descriptor.url}`);

  it('passes a conforming 2xx through with its status, within the gateway contract', () => {
    const answer = route.answer(answered(write.status, write.ok));
    expect(answer).toEqual({ status: write.status, body: write.ok });
    expect(conforms(responseSchema(descriptor, write.status) as TSchema, answer.body)).toBe(true);
  });

  it.each([403, 404, 422])('relays a %i rejection within the gateway contract', (status) => {
    const answer = route.answer(answered(status, { error: 'unknown token' }));
    expect(answer).toEqual({ status, body: { error: `cloud rejected ${write.what}: unknown token`, status } });
    expect(conforms(responseSchema(descriptor, status) as TSchema, answer.body)).toBe(true);
  });

  it('bounds a long cloud error text', () => {
    const answer = route.answer(answered(422, { error: 'x'.repeat(10_000) }));
    expect(JSON.stringify(answer.body).length).toBeLessThan(400);
  });

  it('answers 503 cloud unavailable for an unreachable cloud and for a refused signature', () => {
    expect(route.answer(unreachable)).toMatchObject({ status: 503, body: { error: 'cloud unavailable' } });
    expect(route.answer(answered(401, { error: 'unauthorized' }))).toMatchObject({ status: 503, body: { error: 'cloud unavailable' } });
  });

  it('answers 502 for a 2xx outside the contract, and says why in the log note', () => {
    const answer = route.answer(answered(200, { ok: true, surprise: 1 }));
    expect(answer).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
    expect(answer.problem).toContain(write.what);
  });

  it('answers 502 for a redirect', () => {
    expect(route.answer(answered(302, undefined)).status).toBe(502);
  });

  it('forwards a body the internal contract accepts', () => {
    const internal = Object.values(internalApi).find((r) => r.url === route.internalPath);
    const json = forwardedBody(write.body, { jti: 'b8a4c1c2-0000-4000-8000-000000000000', sub: 'acct_1' });
    expect(internal && json !== undefined && conforms(internal.body, JSON.parse(json))).toBe(true);
  });
});

describe('chassis lookup answers', () => {
  it('adds map:null to the internal {found:false}', () => {
    expect(FORWARDED_ROUTES.chassisLookup.answer(answered(200, { found: false }))).toEqual({ status: 200, body: { found: false, map: null } });
  });

  it('accepts an internal {found:false, map:null} as is', () => {
    expect(FORWARDED_ROUTES.chassisLookup.answer(answered(200, { found: false, map: null }))).toEqual({ status: 200, body: { found: false, map: null } });
  });

  it('refuses found:true without a map', () => {
    expect(FORWARDED_ROUTES.chassisLookup.answer(answered(200, { found: true })).status).toBe(502);
  });
});

describe('ladder requests', () => {
  it.each([
    ['verify', FORWARDED_ROUTES.verify, internalApi.verify],
    ['checkin', FORWARDED_ROUTES.checkin, internalApi.validate],
  ] as const)('%s forwards a body the internal contract accepts', (_name, route, internal) => {
    expect(route.internalPath).toBe(internal.url);
    expect(conforms(internal.body, JSON.parse(forwardedBody({}, { jti: 'j', sub: 'acct_1' }) ?? ''))).toBe(true);
  });
});
