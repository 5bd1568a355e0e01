import type { FastifyInstance } from 'fastify';
import { deliverKeptResults, openCloud, sendRecord, type AgentEnv } from '../agent.js';
import { denialReason } from '../adapters/cloud-client.js';
import { registerJobDetails } from './job-details.js';
import { buildApp } from './app.js';
import type { Fingerprint } from '@erasure/shared';
import { KioskController, type ControllerPorts } from './controller.js';
import { startFloorFeed } from '../adapters/floor-feed.js';
import type { SettledResult } from '../adapters/result-outbox.js';
import { readFile } from 'node:fs/promises';
import { stationChassis } from '../adapters/chassis-fingerprint.js';
import { stationPorts } from '../adapters/station-ports.js';
import { readStationSettings } from '../adapters/station-settings.js';
import type { ErasePolicy } from '../station/station.js';
import { productOfToken, stationTokenRefusal } from '../station/token-product.js';

/** How serve runs: a kiosk for one machine, or a hotswap station with its erase policy and where that came from. */
export interface ServeMode {
  readonly station: boolean;
  readonly policy: ErasePolicy;
  readonly policySource?: PolicySource;
  /** Why the saved settings file was not taken at its word (its policy is then `confirm`). */
  readonly settingsUnreadable?: string;
  /** Why the station refuses to start (a device token that is not a hotswap one): said on the kiosk and in the journal. */
  readonly refused?: string;
}

/** Where a station's starting policy came from (said in the journal at start). */
export type PolicySource = 'saved in settings' | 'unreadable settings file' | '--policy' | 'boot option' | 'default';

/**
 * The policy a station starts with: a setting saved from the kiosk's settings screen wins over
 * what the station was started with (`serve --policy`, else the image's `erasure.station_policy`),
 * which wins over the default, auto-start on insert.
 */
export function startingPolicy(choices: { saved?: ErasePolicy; savedUnreadable?: boolean; flag?: ErasePolicy; bootOption?: ErasePolicy }): { policy: ErasePolicy; source: PolicySource } {
  // A settings file that is there but unreadable may have switched auto-start off: confirm (fail closed).
  if (choices.savedUnreadable) return { policy: 'confirm', source: 'unreadable settings file' };
  if (choices.saved) return { policy: choices.saved, source: 'saved in settings' };
  if (choices.flag) return { policy: choices.flag, source: '--policy' };
  if (choices.bootOption) return { policy: choices.bootOption, source: 'boot option' };
  return { policy: 'auto', source: 'default' };
}

/** A station when asked for (`serve --station`) or when the device token was minted for the hotswap product. */
export async function serveMode(env: AgentEnv, flags: { station?: boolean; policy?: string }): Promise<ServeMode> {
  const token = await readFile(env.config.ERASURE_DEVICE_TOKEN_FILE, 'utf8').catch(() => undefined);
  const settings = await readStationSettings(env.config.DATA_DIR);
  const saved = settings.policy;
  const flag = flags.policy === 'auto' || flags.policy === 'confirm' ? flags.policy : undefined;
  const { policy, source } = startingPolicy({ ...(saved ? { saved } : {}), ...(settings.unreadable ? { savedUnreadable: true } : {}), ...(flag ? { flag } : {}), ...(env.config.ERASURE_STATION_POLICY ? { bootOption: env.config.ERASURE_STATION_POLICY } : {}) });
  const station = flags.station === true || productOfToken(token) === 'hotswap';
  const refused = station ? stationTokenRefusal(token, env.config.ERASURE_DEVICE_TOKEN_FILE) : undefined;
  return { station, policy, policySource: source, ...(settings.unreadable ? { settingsUnreadable: settings.unreadable } : {}), ...(refused ? { refused } : {}) };
}

/** Longest a SIGTERM waits for a clean close before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 2000;

/** Notes are autosaved this long after the last keystroke (spec 4.1 rule 8: debounced). */
export const NOTES_DEBOUNCE_MS = 1500;

/** The address serve binds: a loopback one whatever HOST says, since the API can erase drives. */
export const loopbackHost = (host: string): string => (['127.0.0.1', '::1', 'localhost'].includes(host) ? host : '127.0.0.1');

/** Listens on the loopback address and port of the configuration; resolves with the bound URL. */
export async function listenLoopback(app: FastifyInstance, config: { HOST: string; PORT: number }): Promise<string> {
  return app.listen({ host: loopbackHost(config.HOST), port: config.PORT });
}

/** Gateway ports of the controller: tests and notes of this boot's record, and the certificate lookup. */
export function gatewayPorts(env: AgentEnv, boot: () => { recordId: string; fingerprint: () => Promise<Fingerprint> }, notesDebounceMs = NOTES_DEBOUNCE_MS): ControllerPorts {
  const recordId = () => boot().recordId;
  const outcome = (r: { ok: true } | { ok: false; error: Parameters<typeof denialReason>[0] }) => (r.ok ? { ok: true } : { ok: false, reason: denialReason(r.error) });
  return {
    sendTests: async (tests) => outcome(await (await openCloud(env)).call('tests', { record_id: recordId(), tests })),
    sendNotes: async (notes) => outcome(await (await openCloud(env)).call('notes', { record_id: recordId(), notes })),
    resendRecord: async () => (await sendRecord(env, recordId(), boot().fingerprint)).ok,
    lookupCertificates: async (jobIds) => {
      const r = await (await openCloud(env)).call('certificatesLookup', { job_ids: [...jobIds] });
      return r.ok ? r.value.certificates : undefined;
    },
    notesDebounceMs,
  };
}

/**
 * Builds the controller and app of `erasure-agent serve` (also what the app tests start), with
 * the redelivery of kept wipe results running for the app's life: sessions tell it when they
 * kept a result, and closing the app stops it.
 */
export async function buildServe(env: AgentEnv, notesDebounceMs = NOTES_DEBOUNCE_MS, mode: ServeMode = { station: false, policy: 'auto' }, redeliveryTiming: RedeliveryTiming = {}): Promise<{ app: FastifyInstance; controller: KioskController }> {
  // The ports are called only after construction, when `controller` is set.
  let controller: KioskController | undefined;
  // A result delivered later by the outbox flips to delivered on the kiosk and gets its certificate followed.
  const redelivery = keepDeliveringResults(env, redeliveryTiming, (r) => controller?.resultSettled(r));
  const served: AgentEnv = { ...env, onResultKept: () => redelivery.resultKept(), ...(mode.station && env.config.ERASURE_SIMULATE ? { simulatedStation: true } : {}) };
  const boot = () => {
    if (!controller) throw new Error('serve ports used before the controller exists');
    const c = controller;
    return { recordId: c.record, fingerprint: () => c.fingerprint() };
  };
  // A station's asset reports leave out the drives in its hot-swap slots and, once known, its bays.
  const chassis = mode.station ? stationChassis(served) : undefined;
  const station = chassis ? { policy: mode.policy, ...(mode.refused ? { refused: mode.refused } : {}), chassis: (fp: Fingerprint) => chassis.fingerprint(fp), ports: (b: Parameters<typeof stationPorts>[1], c: Parameters<typeof stationPorts>[2]) => stationPorts(served, b, c, chassis) } : undefined;
  controller = new KioskController(served, { ...gatewayPorts(served, boot, notesDebounceMs), ...(station ? { station } : {}), sendResultsNow: () => redelivery.now() });
  const app = await buildApp(controller, { rendererDir: env.config.KIOSK_RENDERER_DIR });
  registerJobDetails(app, { cloud: () => openCloud(served), recordId: () => boot().recordId });
  const stopFloorFeed = startFloorFeed(controller, () => openCloud(served), { station: mode.station });
  app.addHook('onClose', async () => {
    stopFloorFeed();
    redelivery.stop();
    await controller.close();
  });
  return { app, controller };
}

/** `erasure-agent serve`: listens first (the kiosk shows the locked boot), then unlocks the boot. */
export async function serve(env: AgentEnv, flags: { station?: boolean; policy?: string } = {}): Promise<void> {
  const mode = await serveMode(env, flags);
  const { app, controller } = await buildServe(env, NOTES_DEBOUNCE_MS, mode);
  const url = await listenLoopback(app, env.config);
  process.stdout.write(`erasure-agent listening on ${url}${mode.station ? ` (hotswap station, erase policy ${mode.policy}: ${mode.policySource ?? 'default'})` : ''}\n`);
  if (mode.refused) process.stderr.write(`erasure-agent: station not started: ${mode.refused}\n`);
  if (mode.station && mode.settingsUnreadable) process.stdout.write(`erasure-agent: station: ${mode.settingsUnreadable}: every drive waits for confirmation until a policy is saved again in settings\n`);
  controller.bootUp().catch((error: unknown) => process.stderr.write(`erasure-agent: boot failed: ${(error as Error).message}\n`));
  let stopping = false;
  const stop = () => {
    // A second signal, or a close that stalls, must not keep the kiosk machine from shutting down.
    if (stopping) process.exit(0);
    stopping = true;
    setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS).unref();
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** How often kept wipe results are offered to the cloud again, for as long as serve runs. */
export const REDELIVERY_INTERVAL_MS = 60_000;

/** How soon a result a session just failed to deliver is offered again (its own retries are spent by then). */
export const REDELIVERY_AFTER_KEPT_MS = 10_000;

/** The redelivery's timers (tests shorten them). */
export interface RedeliveryTiming {
  readonly intervalMs?: number;
  readonly afterKeptMs?: number;
}

/**
 * Delivers the wipe results kept in DATA_DIR/outbox for the life of serve: once now, then every
 * `intervalMs`, and `afterKeptMs` after a session says it kept one (`resultKept`). A round with
 * an empty outbox lists one directory and calls nobody. Rounds never overlap: a nudge that comes
 * during a round starts the next one as soon as it ends.
 */
export function keepDeliveringResults(env: AgentEnv, timing: RedeliveryTiming = {}, settled?: (r: SettledResult) => void): Redelivery {
  const intervalMs = timing.intervalMs ?? REDELIVERY_INTERVAL_MS;
  const afterKeptMs = timing.afterKeptMs ?? REDELIVERY_AFTER_KEPT_MS;
  const abort = new AbortController();
  let due = false;
  let wake: (() => void) | undefined;
  let soon: NodeJS.Timeout | undefined;
  /** Callers of `now()` waiting for the end of the next round. */
  let waiting: Array<(r: RoundOutcome) => void> = [];
  /** Waits `ms`, or less when a round falls due (a nudge) or serve stops. */
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      if (due || abort.signal.aborted) return resolve();
      // unref: a waiting redelivery never keeps the process from exiting.
      const timer = setTimeout(() => wake?.(), ms).unref();
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });
  void (async () => {
    while (!abort.signal.aborted) {
      due = false;
      const answer = waiting;
      waiting = [];
      const r = await deliverKeptResults(env, abort.signal, settled).catch(() => ({ delivered: 0, refused: 0, kept: 1 }));
      if (r.delivered || r.refused) process.stdout.write(`erasure-agent: delivered ${r.delivered} kept wipe result(s), ${r.refused} refused, ${r.kept} still waiting\n`);
      for (const done of answer) done(r);
      await nap(intervalMs);
    }
  })();
  return {
    resultKept() {
      if (abort.signal.aborted) return;
      clearTimeout(soon);
      soon = setTimeout(() => {
        due = true;
        wake?.();
      }, afterKeptMs).unref();
    },
    now() {
      if (abort.signal.aborted) return Promise.resolve({ delivered: 0, refused: 0, kept: 0 });
      // Answered by the next round that starts from here on: one running now may have missed a result.
      const round = new Promise<RoundOutcome>((resolve) => waiting.push(resolve));
      due = true;
      wake?.();
      return round;
    },
    stop() {
      abort.abort();
      clearTimeout(soon);
      wake?.();
      for (const done of waiting) done({ delivered: 0, refused: 0, kept: 0 });
      waiting = [];
    },
  };
}

/** What one delivery round did with the kept results. */
export interface RoundOutcome {
  readonly delivered: number;
  readonly refused: number;
  readonly kept: number;
}

/** serve's redelivery of kept wipe results. */
export interface Redelivery {
  stop(): void;
  /** A session kept a result: offer it again soon. */
  resultKept(): void;
  /** The operator's "Send now": a round at once; resolves with what that round did. */
  now(): Promise<RoundOutcome>;
}
