import type { AddressInfo } from 'node:net';
import { helpAnswer, type ProgramHelp } from '@erasure/shared';
import { ConfigError, loadConfig, type GatewayConfig } from './config.js';
import { createForwarder } from './forward.js';
import { buildGatewayApp } from './http/app.js';

/**
 * `erasure-gateway serve` (CONTRACT.md "Binaries"): the only place that reads config,
 * listens and traps signals. It serves only when asked to: no command prints usage and exits 2,
 * as every other binary does, rather than start a server by surprise (issue 28 item 17).
 */
const GATEWAY_HELP: ProgramHelp = {
  name: 'erasure-gateway',
  summary: 'The edge devices call: checks the device token and forwards to the cloud over the HMAC-signed channel.',
  commands: [{ name: 'serve', summary: 'listens on HOST:PORT (default 127.0.0.1:8787)' }],
  notes: ['DEVICE_TOKEN_PUBKEY, INTERNAL_API_SECRET and CLOUD_INTERNAL_URL configure it; without the first two it refuses every call.'],
};

async function main(argv: readonly string[]): Promise<void> {
  const help = helpAnswer(GATEWAY_HELP, argv);
  if (help) {
    process[help.stream].write(`${help.text}\n`);
    process.exit(help.exitCode);
  }

  const config = configOrExit();
  const forwarder = createForwarder({ baseUrl: config.cloudInternalUrls, secret: config.internalApiSecret });
  const app = buildGatewayApp({ publicKey: config.devicePublicKey, forwarder, logger: { level: 'info' } });
  // Say so at start, not per request: a gateway without these refuses every call by design,
  // and the operator should not have to infer that from a stream of 401s and 503s.
  if (!config.devicePublicKey) app.log.warn('DEVICE_TOKEN_PUBKEY is not set: every token route answers 401');
  if (!config.internalApiSecret) app.log.warn('INTERNAL_API_SECRET is not set: nothing can be forwarded (503)');

  await app.listen({ host: config.host, port: config.port });
  const { port } = app.server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  app.log.info(`listening on http://${host}:${port}`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    // A second signal while draining means the operator wants out now.
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Fastify waits for in-flight requests, whose forwards must finish before the pool goes.
    app
      .close()
      .then(() => forwarder.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

function configOrExit(): GatewayConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`erasure-gateway: ${error.message}\n`);
    process.exit(1);
  }
}

await main(process.argv.slice(2));
