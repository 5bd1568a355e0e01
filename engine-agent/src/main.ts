import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import si from 'systeminformation';
import { fingerprint, listDrives, type AgentEnv } from './agent.js';
import { createRunner } from './adapters/runner.js';
import { nodeSystemView } from './adapters/system-view.js';
import { runCommand } from './cli/run-command.js';
import { ConfigError, loadConfig } from './config.js';

const USAGE = `usage: erasure-agent <command> [options]
  fingerprint --json                       the fingerprint document this device reports
  drives --json                            drives with capabilities and erase plan
  run --json [--device PATH]... [--method METHOD] [--yes]
                                           erase the named drives (exit 0 ok, 2 denied, 3 failed)
  serve [--station] [--policy auto|confirm]
                                           loopback API for the kiosk; --station (or a hotswap
                                           token): a hotswap station, erasing on insert (auto)
                                           or per drive once confirmed
  image-env                                boot image: token and gateway from the medium into /run/erasure,
                                           the ERASURE-DATA volume (if any) mounted at DATA_DIR
  headless                                 boot image: the erasure.mode=headless run, then erasure.after
  remote-kiosk                             boot image (erasure.agent_listen): the kiosk on port 7071 for a
                                           browser on another machine, paired with the code the console shows
  --simulate (or ERASURE_SIMULATE=1)       a simulated machine with file-backed drives`;

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      device: { type: 'string', multiple: true, default: [] },
      method: { type: 'string' },
      yes: { type: 'boolean', default: false },
      simulate: { type: 'boolean', default: false },
      station: { type: 'boolean', default: false },
      policy: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 1;
  }
  const config = loadConfig(process.env, { simulate: values.simulate });
  const env: AgentEnv = {
    config,
    run: createRunner(),
    sys: nodeSystemView(),
    si,
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    version,
  };
  const print = (doc: unknown) => process.stdout.write(values.json ? `${JSON.stringify(doc)}\n` : `${JSON.stringify(doc, null, 2)}\n`);
  switch (command) {
    case 'fingerprint':
      print(await fingerprint(env));
      return 0;
    case 'drives':
      print(await listDrives(env));
      return 0;
    case 'run':
      return runCommand(env, { devices: values.device, ...(values.method ? { method: values.method } : {}), yes: values.yes, json: values.json });
    case 'serve': {
      const { serve } = await import('./api/serve.js');
      if (values.policy !== undefined && values.policy !== 'auto' && values.policy !== 'confirm') throw new Error('--policy must be auto or confirm');
      await serve(env, { station: values.station, ...(values.policy ? { policy: values.policy } : {}) });
      return -1; // keeps running until a signal
    }
    case 'image-env': {
      const { IMAGE_DATA_DIR, prepareImageEnv } = await import('./image/image-env.js');
      const { describeDataVolume, mountDataVolume } = await import('./image/data-volume.js');
      const { describeRemoteKiosk } = await import('./remote-kiosk/boot-file.js');
      const r = prepareImageEnv(readFileSync('/proc/cmdline', 'utf8'));
      process.stdout.write(`erasure: mode ${r.options.mode}, gateway ${r.gatewayUrl ?? 'none'} (from ${r.gatewaySource}), device token from ${r.tokenSource}${r.options.stationPolicy ? `, station policy ${r.options.stationPolicy} (boot option)` : ''}\n`);
      const remote = describeRemoteKiosk(r.remoteKiosk);
      // On the machine's own console (the unit writes journal+console): that is where the code is read.
      if (remote) process.stdout.write(`erasure: ${remote}\n`);
      // Before serve starts (the units order on this step): the outbox and settings then live on the volume.
      process.stdout.write(`erasure: ${describeDataVolume(await mountDataVolume(env, IMAGE_DATA_DIR))}\n`);
      return 0;
    }
    case 'headless': {
      const { runHeadless } = await import('./image/headless.js');
      const { parseBootOptions } = await import('./image/boot-options.js');
      const options = parseBootOptions(readFileSync('/proc/cmdline', 'utf8'));
      const code = await runHeadless(env, options, (line) => process.stdout.write(`erasure: ${line}\n`));
      if (options.after === 'poweroff') await env.run('systemctl', ['poweroff', '--no-block'], { timeoutMs: 30_000 });
      else process.stdout.write('erasure: finished; the machine waits (erasure.after=wait)\n');
      return code;
    }
    case 'remote-kiosk': {
      const { IMAGE_PATHS } = await import('./image/image-env.js');
      const { readRemoteKioskFile } = await import('./remote-kiosk/boot-file.js');
      const { REMOTE_KIOSK_PORT, startRemoteKiosk } = await import('./remote-kiosk/proxy.js');
      const { loopbackHost } = await import('./api/serve.js');
      const boot = readRemoteKioskFile(IMAGE_PATHS.runDir);
      if (!boot) {
        // Nothing listens: no file (or an unreadable one) means no remote kiosk, fail closed.
        process.stderr.write(`erasure-agent: no usable ${IMAGE_PATHS.runDir}/remote-kiosk: the boot did not ask for a remote kiosk (erasure.agent_listen)\n`);
        return 1;
      }
      const host = loopbackHost(config.HOST);
      const upstream = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}/`);
      const proxy = await startRemoteKiosk({ listen: boot.listen, port: REMOTE_KIOSK_PORT, code: boot.code, upstream });
      process.stdout.write(`erasure-agent: remote kiosk listening on ${proxy.url} for paired browsers, to ${upstream.href}\n`);
      const stop = () => void proxy.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return -1; // keeps running until a signal
    }
    default:
      process.stderr.write(`unknown command ${command}\n${USAGE}\n`);
      return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`erasure-agent: ${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
