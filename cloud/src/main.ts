import { openDatabase } from './adapters/db/open.js';
import { systemClock } from './adapters/clock.js';
import { parseArgs } from './cli/args.js';
import { runAdmin, UsageError } from './cli/admin.js';
import { keygen } from './cli/keygen.js';
import { loadConfig, ConfigError } from './config.js';
import { buildCloudApp } from './http/app.js';

const USAGE = 'usage: erasure-cloud serve | keygen [--json] | admin <command> [--flags] [--json]';

function print(value: unknown, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(value)}\n`);
  else process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  const db = openDatabase(config.databasePath);
  const app = buildCloudApp({
    db,
    clock: systemClock,
    internalApiSecret: config.INTERNAL_API_SECRET,
    logger: { level: 'info' },
  });
  if (!config.INTERNAL_API_SECRET) app.log.warn('INTERNAL_API_SECRET is not set: /internal/* answers 503');
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  process.stdout.write(`erasure-cloud listening on ${address}\n`);
  const stop = async () => {
    await app.close();
    db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<number> {
  const { positionals, flags } = parseArgs(argv);
  const [command, sub] = positionals;
  const json = flags.json === true;
  switch (command) {
    case undefined:
    case 'serve':
      await serve();
      return 0;
    case 'keygen':
      print(keygen(), json);
      return 0;
    case 'admin': {
      const config = loadConfig(process.env);
      const db = openDatabase(config.databasePath);
      try {
        print(await runAdmin({ db, clock: systemClock, deviceTokenPrivateKey: config.DEVICE_TOKEN_PRIVATE_KEY }, sub, flags), json);
      } finally {
        db.close();
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${command}\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || error instanceof ConfigError;
    process.stderr.write(`erasure-cloud: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
