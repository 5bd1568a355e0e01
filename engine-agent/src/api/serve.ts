import Fastify, { type FastifyInstance } from 'fastify';
import type { AgentEnv } from '../agent.js';
import { KioskController, type Intent } from './controller.js';

const IntentBody = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { enum: ['refresh', 'select', 'confirm', 'start'] },
    devices: { type: 'array', items: { type: 'string' }, maxItems: 64 },
  },
} as const;

/**
 * The kiosk's loopback API: GET /api/state (snapshot), GET /api/events (SSE: `state` and
 * `progress` events), POST /api/intents (operator intents; the controller decides).
 */
export function buildApp(controller: KioskController): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/api/state', async () => controller.snapshot());
  app.post<{ Body: Intent }>('/api/intents', { schema: { body: IntentBody } }, async (req, reply) => {
    const body = req.body.type === 'select' ? { type: 'select' as const, devices: (req.body as { devices?: readonly string[] }).devices ?? [] } : req.body;
    const r = await controller.apply(body);
    if (!r.ok) return reply.code(409).send({ error: r.reason });
    return { ok: true, state: controller.snapshot() };
  });
  app.get('/api/events', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('state', controller.snapshot());
    const onState = (s: unknown) => send('state', s);
    const onProgress = (p: unknown) => send('progress', p);
    controller.on('change', onState);
    controller.on('progress', onProgress);
    req.raw.on('close', () => {
      controller.off('change', onState);
      controller.off('progress', onProgress);
    });
  });
  return app;
}

/** `erasure-agent serve`: loopback only, whatever HOST says, since the API can erase drives. */
export async function serve(env: AgentEnv): Promise<void> {
  const controller = new KioskController(env);
  await controller.apply({ type: 'refresh' });
  const app = buildApp(controller);
  const host = ['127.0.0.1', '::1', 'localhost'].includes(env.config.HOST) ? env.config.HOST : '127.0.0.1';
  const url = await app.listen({ host, port: env.config.PORT });
  process.stdout.write(`erasure-agent listening on ${url}\n`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
