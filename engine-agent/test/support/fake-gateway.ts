import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';

/** One request the fake gateway received. */
export interface GatewayCall {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly authorization?: string;
}

/** How the fake gateway answers; each answer may be delayed with `hold` until `release(path)`. */
export interface GatewayBehaviour {
  /** Answers the floor view's reports 200 (stored) instead of 404 (the floor view off). */
  floorView?: boolean;
  verify?: { allow: true; account: string } | { allow: false; reason: string };
  /** Paths whose answer waits until released (to observe ordering rules). */
  hold?: Set<string>;
  /** Health answers 503 this many times first (then 200). */
  healthFailures?: number;
  /** Certificate status on the 1st, 2nd, … lookup of a job (the last repeats); default pending, then complete. */
  certificateSteps?: string[];
  /** Wipe results answer 503 this many times first (the cloud is down after the erase). */
  wipeResultFailures?: number;
  /** The erasure policy read answers 503 (the cloud down behind the gateway) this many times first. */
  erasurePolicyFailures?: number;
  /** Check-ins answer 503 `validation_unavailable` (spec: cloud unreachable) this many times first. */
  checkinFailures?: number;
  /** The erasure policy answer (status and body); default 200 with the built-in policy. */
  erasurePolicy?: readonly [number, unknown];
  /** The validation pick answer (status and body); default 200, not picked. */
  validationPick?: readonly [number, unknown];
}

const readBody = async (req: IncomingMessage) => {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
};

/**
 * A gateway on a real port speaking the device-facing routes (spec 4.1) with well-formed
 * answers, recording every call. The agent talks to it through its real client, so the tests
 * exercise the same HTTP path as production.
 */
export async function startFakeGateway(behaviour: GatewayBehaviour = {}): Promise<{ url: string; calls: GatewayCall[]; floorReports: GatewayCall[]; release: (path: string) => void; close: () => Promise<void> }> {
  const calls: GatewayCall[] = [];
  // The floor view's reports come every few seconds beside the device writes: kept apart, so the
  // tests that assert the order of the device writes read them as before. Answered 404 (the floor
  // view off) unless a test turns it on.
  const floorReports: GatewayCall[] = [];
  const waiting = new Map<string, Array<() => void>>();
  let wipeSeq = 0;
  let healthCalls = 0;
  let wipeCalls = 0;
  let policyCalls = 0;
  let checkinCalls = 0;
  // job_id -> wipe result id, certificate number (certifiable only) and how often it was looked up
  const wipes = new Map<string, { id: string; number: string | null; lookups: number }>();
  const steps = behaviour.certificateSteps ?? ['pending', 'complete'];
  const answer = (path: string, body: Record<string, unknown>): [number, unknown] => {
    switch (path) {
      case '/api/health':
        healthCalls += 1;
        return healthCalls <= (behaviour.healthFailures ?? 0) ? [503, { error: 'cloud unavailable' }] : [200, { ok: true }];
      case '/api/verify': {
        const v = behaviour.verify ?? { allow: true, account: 'Acme Refurb' };
        return v.allow ? [200, { allow: true, account: v.account, quota_remaining: 9 }] : [403, { allow: false, reason: v.reason }];
      }
      case '/api/erasure_policy':
        policyCalls += 1;
        if (policyCalls <= (behaviour.erasurePolicyFailures ?? 0)) return [503, { error: 'cloud unavailable' }];
        return behaviour.erasurePolicy ? [behaviour.erasurePolicy[0], behaviour.erasurePolicy[1]] : [200, { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'default' }];
      case '/api/validation_pick':
        return behaviour.validationPick ? [behaviour.validationPick[0], behaviour.validationPick[1]] : [200, { picked: false, reason: 'This drive was not erased with this account.' }];
      case '/api/checkin':
        checkinCalls += 1;
        if (checkinCalls <= (behaviour.checkinFailures ?? 0)) return [503, { allow: false, reason: 'validation_unavailable' }];
        return [200, { allow: true, job_id: '6f1c2b1e-0000-4000-8000-000000000001', quota_remaining: 8 }];
      case '/api/record':
        return [201, { ok: true, asset_id: 'asset_1' }];
      case '/api/tests':
      case '/api/notes':
        return [200, { ok: true, asset_id: 'asset_1' }];
      case '/api/wipe_result':
        wipeCalls += 1;
        if (wipeCalls <= (behaviour.wipeResultFailures ?? 0)) return [503, { error: 'cloud unavailable' }];
        wipeSeq += 1;
        wipes.set(String(body.job_id), { id: `wr_${wipeSeq}`, number: body.wipe_status === 'completed' ? `CW-${String(wipeSeq).padStart(6, '0')}` : null, lookups: 0 });
        return [201, { ok: true, wipe_result_id: `wr_${wipeSeq}`, certificate_status: body.wipe_status === 'completed' ? 'pending' : null }];
      case '/api/certificates/lookup': {
        const found = (body.job_ids as string[]).flatMap((jobId) => {
          const w = wipes.get(jobId);
          if (!w) return [];
          w.lookups += 1;
          const status = w.number ? (steps[Math.min(w.lookups, steps.length) - 1] ?? null) : null;
          return [{ job_id: jobId, wipe_result_id: w.id, certificate_number: w.number, certificate_status: status }];
        });
        return [200, { certificates: found }];
      }
      default:
        return [404, { error: 'not found' }];
    }
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      const body = req.method === 'POST' ? await readBody(req) : {};
      if (path === '/api/floor_report') {
        floorReports.push({ path, body });
        const [status, json] = behaviour.floorView ? [200, { ok: true, stored: true }] : [404, { error: 'the floor view is off on this deployment' }];
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        return;
      }
      calls.push({ path, body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      if (behaviour.hold?.has(path)) await new Promise<void>((r) => waiting.set(path, [...(waiting.get(path) ?? []), r]));
      const [status, json] = answer(path, body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    floorReports,
    release: (path) => {
      behaviour.hold?.delete(path);
      for (const r of waiting.get(path) ?? []) r();
      waiting.delete(path);
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // A held answer's socket would otherwise keep close() waiting for the client's idle timeout.
        server.closeAllConnections();
      }),
  };
}
