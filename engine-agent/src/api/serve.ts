import type { FastifyInstance } from 'fastify';
import { deliverKeptResults, openCloud, sendRecord, type AgentEnv } from '../agent.js';
import { denialReason } from '../adapters/cloud-client.js';
import { buildApp } from './app.js';
import type { Fingerprint } from '@erasure/shared';
import { KioskController, type ControllerPorts } from './controller.js';
import { readFile } from 'node:fs/promises';
import { stationPorts } from '../adapters/station-ports.js';
import type { ErasePolicy } from '../station/station.js';
import { productOfToken } from '../station/token-product.js';

/** How serve runs: a kiosk for one machine, or a hotswap station with its erase policy. */
export interface ServeMode {
  readonly station: boolean;
  readonly policy: ErasePolicy;
}

/** A station when asked for (`serve --station`) or when the device token was minted for the hotswap product. */
export async function serveMode(env: AgentEnv, flags: { station?: boolean; policy?: string }): Promise<ServeMode> {
  const token = await readFile(env.config.ERASURE_DEVICE_TOKEN_FILE, 'utf8').catch(() => undefined);
  return { station: flags.station === true || productOfToken(token) === 'hotswap', policy: flags.policy === 'confirm' ? 'confirm' : 'auto' };
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

/** Builds the controller and app of `erasure-agent serve` (also what the app tests start). */
export async function buildServe(env: AgentEnv, notesDebounceMs = NOTES_DEBOUNCE_MS, mode: ServeMode = { station: false, policy: 'auto' }): Promise<{ app: FastifyInstance; controller: KioskController }> {
  // The ports are called only after construction, when `controller` is set.
  let controller: KioskController | undefined;
  const boot = () => {
    if (!controller) throw new Error('serve ports used before the controller exists');
    const c = controller;
    return { recordId: c.record, fingerprint: () => c.fingerprint() };
  };
  const station = mode.station ? { policy: mode.policy, ports: (b: Parameters<typeof stationPorts>[1], c: Parameters<typeof stationPorts>[2]) => stationPorts(env, b, c) } : undefined;
  controller = new KioskController(env, { ...gatewayPorts(env, boot, notesDebounceMs), ...(station ? { station } : {}) });
  const app = await buildApp(controller, { rendererDir: env.config.KIOSK_RENDERER_DIR });
  app.addHook('onClose', async () => controller.close());
  return { app, controller };
}

/** `erasure-agent serve`: listens first (the kiosk shows the locked boot), then unlocks the boot. */
export async function serve(env: AgentEnv, flags: { station?: boolean; policy?: string } = {}): Promise<void> {
  const mode = await serveMode(env, flags);
  const { app, controller } = await buildServe(env, NOTES_DEBOUNCE_MS, mode);
  const url = await listenLoopback(app, env.config);
  process.stdout.write(`erasure-agent listening on ${url}${mode.station ? ` (hotswap station, erase policy ${mode.policy})` : ''}\n`);
  controller.bootUp().catch((error: unknown) => process.stderr.write(`erasure-agent: boot failed: ${(error as Error).message}\n`));
  const redelivery = keepDeliveringResults(env);
  let stopping = false;
  const stop = () => {
    // A second signal, or a close that stalls, must not keep the kiosk machine from shutting down.
    if (stopping) process.exit(0);
    stopping = true;
    redelivery.stop();
    setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS).unref();
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** How often kept wipe results are offered to the cloud again while any are left. */
export const REDELIVERY_INTERVAL_MS = 60_000;

/**
 * Delivers the wipe results earlier runs kept on disk: once now, then every minute while any
 * are left (a timer that does nothing once the outbox is empty, not a busy loop).
 */
export function keepDeliveringResults(env: AgentEnv, intervalMs = REDELIVERY_INTERVAL_MS): { stop(): void } {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    const r = await deliverKeptResults(env, abort.signal).catch(() => ({ delivered: 0, refused: 0, kept: 1 }));
    if (r.delivered || r.refused) process.stdout.write(`erasure-agent: delivered ${r.delivered} kept wipe result(s), ${r.refused} refused, ${r.kept} still waiting\n`);
    // unref: a pending redelivery never keeps the process from exiting.
    if (r.kept > 0 && !abort.signal.aborted) timer = setTimeout(() => void round(), intervalMs).unref();
  };
  void round();
  return {
    stop() {
      abort.abort();
      if (timer) clearTimeout(timer);
    },
  };
}
