import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import si from 'systeminformation';
import { fingerprint, listDrives, openCloud, type AgentEnv } from './agent.js';
import { createRunner } from './adapters/runner.js';
import { readToolComponents } from './adapters/tool-versions.js';
import { nodeSystemView } from './adapters/system-view.js';
import { runCommand } from './cli/run-command.js';
import { ConfigError, loadConfig } from './config.js';
import { helpAnswer, programUsage, type ProgramHelp } from '@erasure/shared';

const AGENT_HELP: ProgramHelp = {
  name: 'erasure-agent',
  summary: 'The device agent: fingerprints this machine, plans and runs the erasure of its drives, verifies and reports.',
  commands: [
    { name: 'fingerprint', args: '[--json]', summary: 'the fingerprint document this device reports' },
    { name: 'drives', args: '[--json]', summary: 'drives with capabilities and erase plan' },
    {
      name: 'run',
      args: '[--json] [--device PATH]... [--method METHOD] [--parallel N] [--yes]',
      summary: 'erase the named drives, all at once or N at a time (exit 0 ok, 2 denied, 3 failed)',
    },
    {
      name: 'serve',
      args: '[--station] [--policy auto|confirm]',
      summary: 'loopback API and the kiosk page; --station (or a hotswap token): a hotswap station,\nerasing on insert (auto) or per drive once confirmed',
    },
    { name: 'image-env', summary: 'boot image: token and gateway from the medium into /run/erasure,\nthe ERASURE-DATA volume (if any) mounted at DATA_DIR' },
    { name: 'headless', summary: 'boot image: the erasure.mode=headless run (or =validate: read the drives picked\nfor validation), then erasure.after' },
    { name: 'remote-kiosk', summary: 'boot image (erasure.agent_listen): the kiosk on port 7071 for a browser on another machine,\npaired with the code the console shows' },
    {
      name: 'validate',
      args: '--device PATH --certificate CW-NNNNNN --serial SERIAL [--expect zeros|random|pattern:HEX]',
      summary: 'read a drive the cloud picked for validation, independently of the erase,\nand report approved or rejected (exit 0 approved, 3 rejected, 2 not recorded)',
    },
    { name: 'sim', args: 'insert BAY [--size SIZE] | pull BAY | pause BAY | resume BAY | list', summary: "the simulated machine's backplane (same DATA_DIR as serve --station --simulate):\nseat a file-backed drive in bay 1-4 (default 64M), pull it, pause or resume its erase\n(a drive that hangs), or list the bays" },
  ],
  notes: [
    '--simulate (or ERASURE_SIMULATE=1): a simulated machine with file-backed drives and a four-bay backplane (see sim);',
    'ERASURE_SIMULATE_MBPS: its drives\' speed in MB/s.',
  ],
};

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function main(argv: string[]): Promise<number> {
  const help = helpAnswer(AGENT_HELP, argv);
  if (help) {
    process[help.stream].write(`${help.text}\n`);
    return help.exitCode;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      device: { type: 'string', multiple: true, default: [] },
      method: { type: 'string' },
      parallel: { type: 'string' },
      yes: { type: 'boolean', default: false },
      simulate: { type: 'boolean', default: false },
      station: { type: 'boolean', default: false },
      policy: { type: 'string' },
      size: { type: 'string' },
      certificate: { type: 'string' },
      serial: { type: 'string' },
      expect: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const command = positionals[0];
  const config = loadConfig(process.env, { simulate: values.simulate });
  const run = createRunner();
  const sys = nodeSystemView();
  const env: AgentEnv = {
    config,
    run,
    sys,
    // Read once at start, only for the commands that report wipe results.
    ...(['run', 'serve', 'headless'].includes(positionals[0] ?? '') ? { toolComponents: readToolComponents({ run, readText: sys.readText, agentVersion: version }) } : {}),
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
      return runCommand(env, { devices: values.device, ...(values.method ? { method: values.method } : {}), ...(values.parallel !== undefined ? { parallel: values.parallel } : {}), yes: values.yes, json: values.json });
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
      const { runHeadless, settleKeptResults } = await import('./image/headless.js');
      const { parseBootOptions } = await import('./image/boot-options.js');
      const { dataVolumeMounted } = await import('./image/data-volume.js');
      const options = parseBootOptions(readFileSync('/proc/cmdline', 'utf8'));
      const say = (line: string) => process.stdout.write(`erasure: ${line}\n`);
      const { runValidateMode } = await import('./image/validate-run.js');
      let code = 0;
      if (options.mode === 'validate') code = await runValidateMode(env, options, say);
      else {
        code = await runHeadless(env, options, say);
        await settleKeptResults(env, { persistent: await dataVolumeMounted(env.sys, config.DATA_DIR), after: options.after }, say);
        // erasure.validate=yes: once the results are in the cloud, the drives it picked are read.
        if (options.validate) code = Math.max(code, await runValidateMode(env, options, say));
      }
      if (options.after === 'poweroff') await env.run('systemctl', ['poweroff', '--no-block'], { timeoutMs: 30_000 });
      else process.stdout.write('erasure: finished; the machine waits (erasure.after=wait)\n');
      return code;
    }
    case 'validate': {
      const { validateCommand } = await import('./cli/validate-command.js');
      return validateCommand(
        () => openCloud(env),
        { device: values.device[0], certificate: values.certificate, serial: values.serial, expect: values.expect },
        print,
        (line) => process.stderr.write(`erasure-agent: ${line}\n`),
      );
    }
    case 'sim': {
      const { simCommand } = await import('./cli/sim-command.js');
      return simCommand(config.DATA_DIR, positionals.slice(1), { ...(values.size !== undefined ? { size: values.size } : {}), json: values.json }, (line) => process.stdout.write(`${line}\n`), (line) => process.stderr.write(`erasure-agent: ${line}\n`));
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
      process.stderr.write(`erasure-agent: unknown command ${command}\n\n${programUsage(AGENT_HELP)}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    // An option node:util's parseArgs does not know is a usage error, like an unknown command.
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`erasure-agent: ${error.message}\n\n${programUsage(AGENT_HELP)}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`erasure-agent: ${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
