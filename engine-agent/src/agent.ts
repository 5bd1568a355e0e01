import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { recordIdAt, stationToolComponents, type ErasurePolicy, type Fingerprint, type Product, type StationBay } from '@erasure/shared';
import { createCloudClient, denialReason, type CloudClient } from './adapters/cloud-client.js';
import { deliverPending, resultOutbox, type SettledResult } from './adapters/result-outbox.js';
import type { Runner } from './adapters/runner.js';
import type { SystemView } from './adapters/system-view.js';
import type { AgentConfig } from './config.js';
import { buildCapabilities, type DriveCapabilities } from './drives/capabilities.js';
import { discoverDrives, probeDrive, type DiscoveredDrive } from './probes/discover-drives.js';
import { reportedSerial, withConnections } from './probes/drive-connection.js';
import { notErasedJob, type NotErasedDrive } from './session/not-erased.js';
import type { DriveIdentity } from './probes/drive-identity.js';
import type { EraseMethod } from './drives/erase-methods.js';
import { planErase, type ErasePlan, type ErasePolicy, type NoErasePlan } from './drives/plan-erase.js';
import type { AtaMasterPasswords } from './erase/ata-master-unlock.js';
import type { IoTuning, ProgressSink } from './erase/progress.js';
import { collectFingerprint, type SystemInfoPort } from './fingerprint/collect.js';
import { parseLsblkJson } from './probes/lsblk.js';
import { parseJsonText } from './probes/parse-result.js';
import { createExecutors, runSession, type SessionInbox } from './adapters/session-interpreter.js';
import { checkinStart } from './session/machine.js';
import { DEFAULT_LIMITS, type DriveJob, type Executors, type Session, type SessionContext, type SessionEvent, type SessionLimits } from './session/types.js';
import { asSimulatedStation, simulatedDrives, simulatedFingerprint } from './simulate/profile.js';
import { holdWhilePaused } from './simulate/pause.js';
import { sedJobField } from './probes/tcg-discovery.js';
import { bootPolicy } from './boot-prep/prepare-drives.js';
import type { HealthGrading } from './health/grading.js';

/** Everything the agent's commands need, built once in main.ts. */
export interface AgentEnv {
  readonly config: AgentConfig;
  readonly run: Runner;
  readonly sys: SystemView;
  readonly si: SystemInfoPort;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  readonly version: string;
  /**
   * The agent, image, tool and kernel versions for `tool_components`, read once at start
   * (adapters/tool-versions.ts); absent, the agent's version alone is named.
   */
  readonly toolComponents?: Promise<string>;
  readonly limits?: SessionLimits;
  /**
   * Told when a session ends with a wipe result it could not deliver (kept in the outbox):
   * serve's redelivery then offers it again soon instead of at its next round.
   */
  readonly onResultKept?: () => void;
  /**
   * Simulate mode only: the simulated machine is a hotswap station (`serve --station --simulate`),
   * a chassis of its own (SIMULATED_STATION_SYSTEM) rather than the simulated laptop.
   */
  readonly simulatedStation?: boolean;
}

/** The drives of this machine (or of the simulated one), each with capabilities and plan. */
export async function listDrives(env: AgentEnv, policy: ErasePolicy = {}): Promise<DiscoveredDrive[]> {
  const base = await machinePolicy(env);
  if (env.config.ERASURE_SIMULATE) return simulatedDrives(env.config.DATA_DIR, { ...base, ...policy });
  return withConnections(env, await discoverDrives(env.run, { ...base, ...policy }, env.sys));
}

/** A simulated machine's drives: at ERASURE_SIMULATE_MBPS when set, and held while paused (`sim pause`). */
function simulatedTuning(mbps: number | undefined): Partial<IoTuning> {
  return { ...(mbps ? { maxBytesPerSecond: mbps * 1e6 } : {}), hold: holdWhilePaused };
}

/**
 * What this machine adds to every plan: a simulated drive erases at ERASURE_SIMULATE_MBPS, not at
 * a real disk's speed (its plan, and so the first time left, says so); a frozen drive's plan says
 * what this boot's freeze lock removal did (boot-prep). A drive planned again for the operator's
 * method keeps them.
 */
export async function machinePolicy(env: AgentEnv): Promise<ErasePolicy> {
  const mbps = env.config.ERASURE_SIMULATE_MBPS;
  if (env.config.ERASURE_SIMULATE) return mbps ? { overwriteBytesPerSecond: mbps * 1e6 } : {};
  return bootPolicy(env.sys, env.config.DATA_DIR);
}

/**
 * A drive planned for a method (the operator's, or a policy's default) with what the machine adds
 * to every plan (`machinePolicy`): every place that plans for a chosen method plans through here.
 */
export function planForMethod(caps: DriveCapabilities, machine: ErasePolicy, policy: ErasePolicy & { readonly methodId: string }): ErasePlan | NoErasePlan {
  return planErase(caps, { ...machine, ...policy });
}

/** The fingerprint document this device reports. */
export async function fingerprint(env: AgentEnv): Promise<Fingerprint> {
  if (env.config.ERASURE_SIMULATE) {
    const simulated = simulatedFingerprint(simulatedDrives(env.config.DATA_DIR));
    return env.simulatedStation ? asSimulatedStation(simulated) : simulated;
  }
  return collectFingerprint({ run: env.run, sys: env.sys, si: env.si, drives: () => discoverDrives(env.run) });
}

/** A drive the operator named but discovery did not list as a disk (e.g. a loop device): probe it alone. */
async function probeNamed(env: AgentEnv, device: string, policy: ErasePolicy): Promise<DiscoveredDrive> {
  const r = await env.run('lsblk', ['-J', '-b', '-O', device], { timeoutMs: 30_000 }).catch(() => undefined);
  const json = r ? parseJsonText(r.stdout) : undefined;
  const tree = json?.ok ? parseLsblkJson(json.value) : undefined;
  const lsblk = tree?.ok ? tree.value[0] : undefined;
  const capabilities = buildCapabilities(await probeDrive(env.run, device, lsblk, env.sys));
  return { device, internal: false, capabilities, plan: planErase(capabilities, policy) };
}

/** The methods side of a selection (issue 29): the account's policy, and the operator's method per device. */
export interface MethodChoice {
  readonly erasure?: ErasurePolicy;
  readonly methods?: Readonly<Record<string, string>>;
  /** The account has ATA master passwords (issue 30 item 1): a locked drive plans its Security Erase. */
  readonly ataMasterPasswords?: boolean;
}

/** Resolves the operator's selection to drives with plans; a drive without a usable plan stops the run before any cloud call. */
export async function selectDrives(
  env: AgentEnv,
  devices: readonly string[],
  method?: EraseMethod,
  choice: MethodChoice = {},
): Promise<{ ok: true; drives: DiscoveredDrive[] } | { ok: false; reason: string; unknownDevice: boolean }> {
  const policy: ErasePolicy = { ...(method ? { forceMethod: method } : {}), ...(choice.erasure ? { erasure: choice.erasure } : {}), ...(choice.ataMasterPasswords ? { ataMasterPasswords: true } : {}) };
  const known = await listDrives(env, policy);
  const real = async (p: string) => realpath(p).catch(() => p);
  const chosen: DiscoveredDrive[] = [];
  for (const device of devices) {
    const path = await real(device);
    const found = await (async () => {
      for (const d of known) if ((await real(d.device)) === path) return d;
      return env.config.ERASURE_SIMULATE ? undefined : probeNamed(env, device, policy);
    })();
    if (!found) return { ok: false, reason: `${device} is not a drive of this machine`, unknownDevice: true };
    // The operator's method for this drive is planned on its own (issue 29); refused, nothing starts.
    const own = choice.methods?.[device];
    const drive = own !== undefined ? { ...found, plan: planForMethod(found.capabilities, await machinePolicy(env), { ...policy, methodId: own }) } : found;
    if (!drive.plan.ok) return { ok: false, reason: `${device}: ${drive.plan.reason}`, unknownDevice: false };
    chosen.push({ ...drive, device });
  }
  return { ok: true, drives: chosen };
}

/** `CW-YYYYMMDD-HHMMSS` (UTC) boot record id (spec 2), in the one format shared defines. */
export const recordIdOf = (d: Date) => recordIdAt(d);

/** The gateway client with this device's token; a missing token file sends none and the gateway answers 401 (fail closed). */
export async function openCloud(env: AgentEnv, signal?: AbortSignal): Promise<CloudClient> {
  const token = (await readFile(env.config.ERASURE_DEVICE_TOKEN_FILE, 'utf8').catch(() => '')).trim() || undefined;
  return createCloudClient({ baseUrl: env.config.ERASURE_GATEWAY_URL, token, timeoutMs: 30_000, ...(signal ? { signal } : {}) });
}

/** `sleep` that ends early once `signal` aborts: a shutdown must not wait out a 4 s health delay. */
export function abortableSleep(sleep: (ms: number) => Promise<void>, signal: AbortSignal | undefined): (ms: number) => Promise<void> {
  if (!signal) return sleep;
  return (ms) =>
    signal.aborted
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            signal.removeEventListener('abort', done);
            resolve();
          };
          signal.addEventListener('abort', done, { once: true });
          void sleep(ms).then(done);
        });
}

/** Observers of a session run. */
export interface SessionHooks {
  readonly onState?: (s: Session) => void;
  readonly onProgress?: ProgressSink;
  /** Called with the asset report's outcome (serve sends tests and notes only after an acknowledged report). */
  readonly onRecord?: (ev: Extract<SessionEvent, { type: 'record' }>) => void;
  /** Called with each health attempt's outcome (serve shows why the last attempt failed). */
  readonly onHealth?: (ev: Extract<SessionEvent, { type: 'health' }>) => void;
}

/** Where a run starts: a whole session, or, after `bootSession` unlocked this boot, at check-in. */
export interface RunFrom {
  readonly recordId?: string;
  /** The account verify allowed: the run then skips health, verify and the asset report. */
  readonly account?: string;
  /** The fingerprint collected once for this boot; absent, the asset report collects its own. */
  readonly fingerprint?: () => Promise<Fingerprint>;
  /** Aborts gateway calls and retry waits (serve's shutdown). */
  readonly signal?: AbortSignal;
  /** The account's ATA master passwords (issue 30 item 1): to the erase only, never into the session's state. */
  readonly ataMasterPasswords?: AtaMasterPasswords;
  /** The account's health grade table and self-test switch (issue 30 item 6); absent: the default table. */
  readonly healthGrading?: HealthGrading;
  /** Stops the erase itself (a station's drive pulled or cancelled); the wipe result is still reported. */
  readonly eraseSignal?: AbortSignal;
  /** `hotswap`: a station bay, checked in per drive with an unsuffixed job id (spec sequence, step 7). Default engine. */
  readonly product?: Product;
  /** Where the drive was erased, for a station bay: carried in tool_components to the certificate. */
  readonly bay?: StationBay;
  /**
   * A station bay's drive as its bay probed it: the check-in is not sent, and nothing is written,
   * once its node no longer names that disk (a pull-out, treated as one).
   */
  readonly boundTo?: DriveIdentity;
  /** Drives erased at once (`--parallel N`, `erasure.parallel=N`); absent: ERASURE_PARALLEL, else every drive. */
  readonly parallel?: number;
  /** Where the operator's stop of one drive comes in (the kiosk); the run ends as usual. */
  readonly inbox?: SessionInbox;
  /** Drives seen but not erased: each reported `failed` with its reason after the erased ones, never written (issue 30 item 7). */
  readonly notErased?: readonly NotErasedDrive[];
}

/**
 * The key of the NVMe subsystem a firmware erase acts on: a sanitize works on every namespace of
 * the subsystem (a format may too), so two drives with one key are never erased at once. Namespaces
 * of one controller share it even when sysfs does not name the subsystem; other methods have none.
 */
export async function subsystemKey(env: Pick<AgentEnv, 'sys'>, device: string, method: EraseMethod): Promise<string | undefined> {
  if (!method.startsWith('nvme-')) return undefined;
  const controller = /nvme(\d+)(?:c\d+)?n\d+$/.exec(device)?.[1];
  if (controller === undefined) return `nvme:${device}`;
  const nqn = (await env.sys.readText(`/sys/class/nvme/nvme${controller}/subsysnqn`))?.trim();
  return `nvme:${nqn || `nvme${controller}`}`;
}

/** Runs one session over the selected drives (none: only health, verify and the asset report) and returns its terminal state. */
export async function runErase(env: AgentEnv, drives: readonly DiscoveredDrive[], hooks: SessionHooks = {}, from: RunFrom = {}): Promise<Session> {
  const client = await openCloud(env, from.signal);
  const jobs = await Promise.all(
    drives.map(async (d) => {
      if (!d.plan.ok) throw new Error(`no plan for ${d.device}`); // selectDrives filtered these out
      const exclusive = env.config.ERASURE_SIMULATE ? undefined : await subsystemKey(env, d.device, d.plan.method);
      return { device: d.device, method: d.plan.method, preconditions: d.plan.preconditions, label: d.plan.label, technique: d.plan.technique, ...(d.capabilities.model ? { model: d.capabilities.model } : {}), ...(reportedSerial(d) ? { serial: reportedSerial(d) } : {}), ...(d.capabilities.sizeBytes !== undefined ? { sizeBytes: d.capabilities.sizeBytes } : {}), ...(exclusive ? { exclusive } : {}), ...(d.connection ? { connection: d.connection.reportLine } : {}), ...methodOfPlan(d.plan), ...sedJobField(d.capabilities.selfEncryption), ...(d.psidRevert ? { psidRevert: d.psidRevert } : {}) };
    }),
  );
  const parallel = from.parallel ?? env.config.ERASURE_PARALLEL;
  const ctx: SessionContext = {
    product: from.product ?? 'engine',
    drives: [...jobs, ...(from.notErased ?? []).map(notErasedJob)],
    recordId: from.recordId ?? recordIdOf(env.now()),
    engineVersion: env.version,
    toolComponents: await (async () => {
      const tools = (await env.toolComponents) ?? `erasure-agent ${env.version}`;
      return from.bay ? stationToolComponents(tools, from.bay) : tools;
    })(),
    limits: env.limits ?? DEFAULT_LIMITS,
    ...(parallel !== undefined ? { parallel } : {}),
  };
  const executors = createExecutors(ctx, {
    client,
    erase: { run: env.run, sleep: env.sleep, sys: env.sys, now: env.now, ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}), ...(from.eraseSignal ? { signal: from.eraseSignal } : {}), ...(from.boundTo ? { boundTo: from.boundTo } : {}), ...(env.config.ERASURE_SIMULATE ? { tuning: simulatedTuning(env.config.ERASURE_SIMULATE_MBPS) } : {}) },
    fingerprint: from.fingerprint ?? (() => fingerprint(env)),
    sleep: abortableSleep(env.sleep, from.signal),
    jitterMs: () => Math.floor(Math.random() * 250),
    simulated: env.config.ERASURE_SIMULATE,
    ...(from.ataMasterPasswords ? { ataMasterPasswords: from.ataMasterPasswords } : {}),
    ...(from.healthGrading ? { healthGrading: from.healthGrading } : {}),
  });
  const outbox = resultOutbox(env.config.DATA_DIR);
  const observed: Executors = {
    ...executors,
    // Each result is on disk before it is first sent and leaves only once the cloud settled it.
    sendWipeResult: async (e) => {
      const jobId = String(e.body.job_id);
      await outbox.keep(jobId, e.body as unknown as Record<string, unknown>);
      const ev = await executors.sendWipeResult(e);
      if (ev.type === 'reported' && (ev.ok || !ev.retryable)) await outbox.drop(jobId);
      return ev;
    },
    sendRecord: async (e) => {
      const ev = await executors.sendRecord(e);
      if (ev.type === 'record') hooks.onRecord?.(ev);
      return ev;
    },
    checkHealth: async (e) => {
      const ev = await executors.checkHealth(e);
      if (ev.type === 'health') hooks.onHealth?.(ev);
      return ev;
    },
  };
  const stateFile = join(env.config.DATA_DIR, 'session.json');
  await mkdir(env.config.DATA_DIR, { recursive: true });
  const end = await runSession(
    ctx,
    observed,
    {
      persist: (s) => writeFile(stateFile, JSON.stringify({ recordId: ctx.recordId, session: s }, null, 2)),
      ...(hooks.onState ? { onState: hooks.onState } : {}),
    },
    from.account !== undefined ? checkinStart(from.account) : undefined,
    from.inbox,
  );
  if ((end.phase === 'done' || end.phase === 'failed') && end.reports.some((r) => !r.delivered)) env.onResultKept?.();
  return end;
}

/** Sends the asset report once more (spec 4.1 rule 8: re-armed on a later connection). */
export async function sendRecord(env: AgentEnv, recordId: string, doc: () => Promise<Fingerprint> = () => fingerprint(env)): Promise<{ ok: true; assetId: string } | { ok: false; reason: string }> {
  const client = await openCloud(env);
  const r = await client.call('record', { record_id: recordId, engine_version: env.version, fingerprint: await doc() });
  return r.ok ? { ok: true, assetId: r.value.asset_id } : { ok: false, reason: denialReason(r.error) };
}

/** CONTRACT exit codes: 0 all erased and certified, 2 denied/unreachable (nothing erased), 3 any drive failed. */
export function exitCodeOf(s: Session): 0 | 2 | 3 {
  if (s.phase === 'denied') return 2;
  if (s.phase === 'done' && s.reports.every((r) => r.delivered && r.outcome.ok)) return 0;
  return 3;
}

/**
 * Sends the wipe results a run could not deliver (the gateway was down, or the machine rebooted
 * before it came back). With none waiting it only lists the outbox: no token read, no call.
 */
export async function deliverKeptResults(env: AgentEnv, signal?: AbortSignal, settled?: (r: SettledResult) => void): Promise<{ delivered: number; refused: number; kept: number }> {
  const outbox = resultOutbox(env.config.DATA_DIR);
  if ((await outbox.pending()).length === 0) return { delivered: 0, refused: 0, kept: 0 };
  return deliverPending(outbox, await openCloud(env, signal), settled);
}

/** The method fields of a plan a drive job carries to the erase (issue 29); none for today's plan. */
function methodOfPlan(plan: ErasePlan): Pick<DriveJob, 'overwritePasses' | 'passesBeforeFirmware' | 'verification'> {
  return {
    ...(plan.overwritePasses ? { overwritePasses: plan.overwritePasses } : {}),
    ...(plan.passesBeforeFirmware ? { passesBeforeFirmware: plan.passesBeforeFirmware } : {}),
    ...(plan.verification ? { verification: plan.verification } : {}),
  };
}
