import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One JSON line per request (CONTRACT.md): Fastify's default writes two ("incoming" and
 * "completed"), so the first is dropped and the second carries method, url, status and time.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
