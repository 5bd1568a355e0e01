import type { FastifyInstance } from 'fastify';
import { ERRORS, exceedsJsonDepth, internalApi } from '@erasure/shared';
import type { Commits, StatementGroupCommit } from '../../adapters/db/group-commit.js';
import type { DeviceDeps, Refusal } from '../../domain/device/deps.js';
import { readBootReport, reportBoot, saveNotes, saveTests } from '../../domain/device/assets.js';
import { lookupChassis, saveChassis } from '../../domain/device/chassis.js';
import { checkInAtOnce, requireActiveToken, verifyToken, validateToken, type LadderOutcome } from '../../domain/device/tokens.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { receiveWipeResult } from '../../domain/device/wipe-results.js';
import { lookupCertificateNumbers } from '../../domain/device/certificate-numbers.js';
import { reportValidation } from '../../domain/validation/report.js';
import { pickForValidation } from '../../domain/validation/pick.js';
import { isoNow } from '../../domain/clock.js';
import { erasurePolicyFor } from '../../domain/device/erasure-policy.js';
import { jobChoicesFor, saveJobDetails } from '../../domain/device/job-details.js';
import { receiveFloorReport } from '../../domain/floor/receive.js';
import { pruneFloorMachines, readFloorContext, readFloorProgress, storeFloorReport } from '../../adapters/db/floor-machines.js';

type Body = Record<string, unknown>;
/** What one internal call answers: computed inside the write batch, sent after its COMMIT. */
interface Answer {
  status: number;
  body: unknown;
  /** Runs once the call's transaction committed, before the answer is sent. */
  committed?: () => void;
}

/** Bodies reach the domain as plain objects; anything else reads as an empty body. */
const asBody = (body: unknown): Body =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};

/**
 * Whether any string of the body, key or value, holds U+0000. PostgreSQL's text cannot store it
 * (binding one fails the statement, and the asset trigger's jsonb refuses `\u0000`), and no
 * device field carries one, so both stores refuse it alike, before any SQL. Runs after the depth
 * check, so the recursion is shallow.
 */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsNul);
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
}

const NOT_FOUND = { allow: false, status: 'unknown', reason: 'not_found' } as const;

function ladderAnswer<A extends object>(outcome: LadderOutcome<A>, allowBody: (a: A) => object): Answer {
  switch (outcome.kind) {
    case 'allow': {
      const { kind: _kind, ...allow } = outcome;
      return { status: 200, body: allowBody(allow as unknown as A) };
    }
    case 'deny':
      return { status: 403, body: outcome.body };
    case 'not_found':
      return { status: 404, body: NOT_FOUND };
  }
}

const refusalAnswer = (refusal: Refusal): Answer => ({ status: refusal.status, body: { error: refusal.error } });

/** One route's work: the call's deps (their `db` is the write's transaction) and its body. */
type Route = (deps: DeviceDeps, body: Body) => Promise<Answer>;

/** Non-ladder endpoints: an active token first (404 unknown / 403 not active), then the work. */
const withActiveToken =
  (work: (deps: DeviceDeps, token: TokenRow, body: Body) => Promise<Answer>): Route =>
  async (deps, body) => {
    const auth = await requireActiveToken(deps, body);
    return auth.ok ? work(deps, auth.token, body) : refusalAnswer(auth);
  };

const checkinAllowed = (a: { job_id: string; quota_remaining: number | null }) => ({
  allow: true,
  status: 'active',
  quota_remaining: a.quota_remaining,
  job_id: a.job_id,
});

/** Each internal route's answer, by path (spec 4.2, bodies of spec section 7). */
const INTERNAL_ANSWERS: Record<string, Route> = {
  [internalApi.verify.url]: async (deps, body) =>
    ladderAnswer(await verifyToken(deps, body), (a) => ({ allow: true, status: 'active', account: a.account, quota_remaining: a.quota_remaining })),
  [internalApi.validate.url]: async (deps, body) =>
    ladderAnswer(await validateToken(deps, body), checkinAllowed),
  [internalApi.assets.url]: withActiveToken(async (deps, token, body) => {
    const report = readBootReport(body);
    if (!report.ok) return refusalAnswer(report);
    return { status: 201, body: { ok: true, asset_id: (await reportBoot(deps, token, report)).assetPublicId } };
  }),
  [internalApi.notes.url]: withActiveToken(async (deps, token, body) => {
    const saved = await saveNotes(deps, token, body);
    return saved.ok ? { status: 200, body: { ok: true, asset_id: saved.assetId } } : refusalAnswer(saved);
  }),
  [internalApi.tests.url]: withActiveToken(async (deps, token, body) => {
    const saved = await saveTests(deps, token, body);
    return saved.ok ? { status: 200, body: { ok: true, asset_id: saved.assetId } } : refusalAnswer(saved);
  }),
  [internalApi.wipeResults.url]: withActiveToken(async (deps, token, body) => {
    const received = await receiveWipeResult(deps, token, body);
    if (!received.ok) return refusalAnswer(received);
    return { status: received.created ? 201 : 200, body: received.response };
  }),
  [internalApi.chassisMaps.url]: withActiveToken(async (deps, token, body) => {
    const saved = await saveChassis(deps, token, body);
    if (!saved.ok) return refusalAnswer(saved);
    return { status: 201, body: { ok: true, chassis_map_id: saved.chassisMapId, asset_id: saved.assetId } };
  }),
  [internalApi.chassisLookup.url]: withActiveToken(async (deps, token, body) => ({ status: 200, body: await lookupChassis(deps, token, body) })),
  [internalApi.certificatesLookup.url]: withActiveToken(async (deps, token, body) => {
    const looked = await lookupCertificateNumbers(deps, token, body);
    return looked.ok ? { status: 200, body: looked.found } : refusalAnswer(looked);
  }),
  // Beyond the spec (issue 29): a picked drive's validation result.
  [internalApi.validations.url]: withActiveToken(async (deps, token, body) => {
    if (!deps.validation) return { status: 404, body: { error: 'validation reports are not taken here' } };
    const events = deps.events;
    const out = await reportValidation(
      { db: deps.db, store: deps.validation.store, now: isoNow(deps.clock), onRejected: async (db, owner, facts) => events?.emit(db, { type: 'validation_rejected', token: owner, facts }) },
      token,
      body,
    );
    return out.ok ? { status: out.created ? 201 : 200, body: out.response } : { status: out.status, body: { error: out.error } };
  }),
  // Beyond the spec (issue 29): whether a drive (by serial) was picked for validation; reads only.
  [internalApi.validationPick.url]: withActiveToken(async (deps, token, body) => {
    if (!deps.validation) return { status: 404, body: { error: 'validation picks are not answered here' } };
    const out = await pickForValidation({ db: deps.db, store: deps.validation.store }, token, body);
    return out.ok ? { status: 200, body: out.answer } : { status: out.status, body: { error: out.error } };
  }),
  // Beyond the spec (issue 31 item 6): job details typed at the kiosk, and the lists it offers.
  [internalApi.jobDetails.url]: withActiveToken(async (deps, token, body) => {
    const out = await saveJobDetails(deps, token, body);
    return out.ok ? { status: 200, body: out.saved } : refusalAnswer(out);
  }),
  [internalApi.jobChoices.url]: withActiveToken(async (deps, token) => ({ status: 200, body: await jobChoicesFor(deps, token) })),
  // Beyond the spec (issue 32): a machine's live state for the floor view.
  [internalApi.floorReport.url]: withActiveToken(async (deps, token, body) => {
    const floor = deps.floor;
    const store = { storeFloorReport, pruneFloorMachines, readFloorProgress, readFloorContext };
    const out = await receiveFloorReport({ db: deps.db, clock: deps.clock, enabled: floor?.enabled ?? false, store, sweep: floor?.sweep, events: deps.events }, token, body);
    if (!out.ok) return refusalAnswer(out);
    return { status: 200, body: out.ack, committed: out.ack.stored ? () => floor?.committed(token.account_id) : undefined };
  }),
  // Beyond the spec (docs/integrator.md): the policy the device erases under, asked once verify allowed.
  [internalApi.erasurePolicy.url]: withActiveToken(async (deps, token) => ({ status: 200, body: await erasurePolicyFor(deps, token) })),
};

/**
 * Answers that one statement settles on its own, tried first where the store runs such
 * statements in a group commit ({@link Commits.statements}); undefined hands the call to its
 * transactional route. A check-in's statement locks its token's row, so it is keyed by the jti.
 */
const AT_ONCE_ANSWERS: Record<string, (deps: DeviceDeps, body: Body, statements: StatementGroupCommit) => Promise<Answer | undefined>> = {
  [internalApi.validate.url]: async (deps, body, statements) => {
    const outcome = await checkInAtOnce({ ...deps, db: statements.keyed(String(body.jti)) }, body);
    return outcome && ladderAnswer(outcome, checkinAllowed);
  },
};

/**
 * The internal API of spec 4.2. Registered inside the HMAC-guarded scope; each call's work runs
 * through `commits` on the transaction it is handed (batched in the group commit on SQLite), and
 * the answer is sent only once that transaction committed. Where one statement can settle a
 * call alone (a check-in on PostgreSQL), that statement is tried first, and its answer too is
 * sent only once it committed.
 */
export function registerInternalRoutes(scope: FastifyInstance, deps: DeviceDeps, commits: Commits): void {
  for (const [url, answer] of Object.entries(INTERNAL_ANSWERS)) {
    scope.post(url, async (request, reply) => {
      // Deeper than any real device body: refused before it reaches SQLite's JSON functions
      // (which stop at 1,000 levels inside the asset triggers) or a recursive encoder.
      if (exceedsJsonDepth(request.body)) return reply.code(422).send({ error: ERRORS.nestedTooDeeply });
      if (holdsNul(request.body)) return reply.code(422).send({ error: ERRORS.invalidPayload });
      const body = asBody(request.body);
      const atOnce = AT_ONCE_ANSWERS[url];
      const settled = atOnce && commits.statements ? await atOnce(deps, body, commits.statements) : undefined;
      const out = settled ?? (await commits.run((tx) => answer({ ...deps, db: tx }, body)));
      out.committed?.();
      return reply.code(out.status).send(out.body);
    });
  }
}
