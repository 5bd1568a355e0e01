import { agentLocalApi, type AgentEventName, type AgentIntent, type ScreenReport } from '@erasure/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import type { KioskController } from './controller.js';
import { sameOriginOrNone } from './same-origin.js';
import { registerRenderer } from './static-files.js';

/** Hostnames a loopback page may use. Anything else is a foreign page (DNS rebinding) and is refused. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const hostnameOf = (host: string | undefined) => (host ?? '').replace(/:\d+$/, '').toLowerCase();

/** Options of the app. */
export interface AppOptions {
  /** The kiosk renderer's built files, served at `/` when the folder holds an index.html. */
  readonly rendererDir?: string;
}

/**
 * The kiosk's loopback API (shared `agentLocalApi`): GET /api/state (AgentState), GET /api/events
 * (SSE: `state` and `progress`), POST /api/intents (operator intents; the controller decides and
 * refuses with 409 and the reason), POST /api/screen (the kiosk shell's watchdog). Bodies are
 * validated against the shared TypeBox schemas, with Ajv set to reject rather than strip or
 * coerce (STYLE D).
 */
export async function buildApp(controller: KioskController, options: AppOptions = {}): Promise<FastifyInstance> {
  // forceCloseConnections: an open SSE stream (or a kept-alive socket) must not hold close() up.
  const app = Fastify({ logger: false, forceCloseConnections: true, ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } } });
  // The API can erase drives: only pages served from a loopback name may call it.
  app.addHook('onRequest', async (req, reply) => {
    if (!LOOPBACK_NAMES.has(hostnameOf(req.headers.host))) return reply.code(403).send({ error: 'the agent API answers loopback origins only' });
    if (!sameOriginOrNone(req.method, req.headers.origin, req.headers.host)) return reply.code(403).send({ error: 'the agent API accepts changes from its own page only' });
    return undefined;
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return reply.code(status).send({ error: status === 500 ? 'internal error' : error.message });
  });

  // Open event streams, ended on close so each kiosk sees its stream end (and reconnects to the next agent).
  const streams = new Set<import('node:http').ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of streams) res.end();
    streams.clear();
  });

  const { state, intents, events, screen } = agentLocalApi;
  app.route({ method: state.method, url: state.url, handler: async () => controller.snapshot() });
  app.route<{ Body: AgentIntent }>({
    method: intents.method,
    url: intents.url,
    schema: { body: intents.body },
    handler: async (req, reply) => {
      const r = await controller.apply(req.body);
      if (!r.ok) return reply.code(409).send({ error: r.reason });
      return { ok: true, state: controller.snapshot() };
    },
  });
  // The kiosk shell's watchdog reports the machine's own screen (a report, not an operator intent: nothing is refused).
  app.route<{ Body: ScreenReport }>({
    method: screen.method,
    url: screen.url,
    schema: { body: screen.body },
    handler: async (req, reply) => {
      controller.screenReported(req.body);
      return reply.code(204).send();
    },
  });
  app.route({
    method: events.method,
    url: events.url,
    handler: (req, reply) => {
      reply.hijack();
      const res = reply.raw;
      streams.add(res);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const send = (event: AgentEventName, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('state', controller.snapshot());
      const onState = (snapshot: unknown) => send('state', snapshot);
      const onProgress = (progress: unknown) => send('progress', progress);
      controller.on('change', onState);
      controller.on('progress', onProgress);
      req.raw.on('close', () => {
        streams.delete(res);
        controller.off('change', onState);
        controller.off('progress', onProgress);
      });
    },
  });
  if (options.rendererDir) await registerRenderer(app, options.rendererDir);
  return app;
}
