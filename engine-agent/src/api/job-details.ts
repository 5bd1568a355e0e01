import { agentJobDetailsApi, KioskJobDetails, type JobChoices, type JobDetailsSaved } from '@erasure/shared';
import type { FastifyInstance } from 'fastify';
import { denialReason, type ApiError, type CloudClient } from '../adapters/cloud-client.js';

/** The gateway, and this boot's record, as the relay needs them. */
export interface JobDetailsPorts {
  readonly cloud: () => Promise<CloudClient>;
  readonly recordId: () => string;
}

/**
 * The kiosk's job details (issue 31 item 6), relayed as they are: the cloud checks them (length,
 * control characters, free entry) and its refusal, in plain words, goes back to the kiosk with
 * its status; an unreachable service is a 503 the kiosk shows as such. Nothing is kept here: the
 * cloud puts the details on each wipe result that names this boot's record.
 */
export function registerJobDetails(app: FastifyInstance, ports: JobDetailsPorts): void {
  app.route<{ Body: KioskJobDetails }>({
    method: agentJobDetailsApi.save.method,
    url: agentJobDetailsApi.save.url,
    schema: { body: KioskJobDetails },
    handler: async (req, reply) => {
      const r = await (await ports.cloud()).call('jobDetails', { record_id: ports.recordId(), ...req.body });
      if (r.ok) return r.value satisfies JobDetailsSaved;
      return reply.code(r.error.kind === 'status' && r.error.status < 500 ? r.error.status : 503).send({ error: refusalOf(r.error) });
    },
  });
  app.route({
    method: agentJobDetailsApi.choices.method,
    url: agentJobDetailsApi.choices.url,
    handler: async (_req, reply) => {
      const r = await (await ports.cloud()).call('jobChoices', {});
      if (r.ok) return r.value satisfies JobChoices;
      return reply.code(503).send({ error: refusalOf(r.error) });
    },
  });
}

// The gateway relays the cloud's words as `cloud rejected job details: <words>`; the technician needs the words.
function refusalOf(error: ApiError): string {
  const text = error.kind === 'status' ? (error.body as { error?: unknown } | undefined)?.error : undefined;
  if (typeof text === 'string') return text.replace(/^cloud rejected job (details|choices): /, '');
  return `The service could not be reached (${denialReason(error)}); the details were not saved.`;
}
