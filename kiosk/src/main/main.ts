import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ChromiumMissingError, assertChromium, chromiumArgs, launchChromium, systemChromiumDeps, watchedChromium } from './chromium.js';
import { WATCHDOG_DEFAULTS, watchChromium } from './chromium-watchdog.js';
import { loadElectron } from './electron-api.js';
import { runElectronShell } from './electron-shell.js';
import { KioskOptionsError, parseKioskOptions } from './options.js';
import { rendererRssBytes } from './renderer-processes.js';
import { screenReporter } from './screen-report.js';
import { waitForAgent } from './wait-agent.js';

const USAGE = `usage: erasure-kiosk [--url http://127.0.0.1:7070] [--windowed] [--dry-run]
  Opens the technician's screen served by the agent: in Electron when its binary is present,
  otherwise in Chromium (--kiosk --app). ERASURE_AGENT_URL and KIOSK_CHROMIUM override defaults.`;

const thisScript = fileURLToPath(import.meta.url);
const preloadPath = fileURLToPath(new URL('../preload/preload.cjs', import.meta.url));

/** Resolves with the child's exit code. */
const exitOf = (child: ReturnType<typeof spawn>) =>
  new Promise<number>((resolve) => {
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });

async function main(argv: string[]): Promise<number> {
  // The product's help convention (see @erasure/shared cli-help): help on stdout, exit 0; the kiosk has
  // no commands, so a first argument that is not an option is a usage error (exit 2).
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (argv[0] !== undefined && !argv[0].startsWith('-')) {
    process.stderr.write(`erasure-kiosk: unknown command ${argv[0]}\n\n${USAGE}\n`);
    return 2;
  }
  const options = parseKioskOptions(argv, process.env);
  const electron = await loadElectron();
  if (electron.kind === 'runtime') {
    process.stderr.write(`erasure-kiosk: shell: Electron ${process.versions.electron ?? ''} on ${options.agentUrl.href}\n`);
    const log = (line: string) => process.stderr.write(`erasure-kiosk: ${line}\n`);
    const report = screenReporter(options.agentUrl, log);
    await runElectronShell(electron.api, {
      agentUrl: options.agentUrl,
      windowed: options.windowed,
      preloadPath,
      retryMs: 2000,
      schedule: (fn, ms) => void setTimeout(fn, ms),
      report: (r) => {
        if (r.reason) log(`reload: ${r.reason}`);
        void report(r);
      },
    });
    return -1; // Electron's event loop keeps the process alive until the window closes
  }
  if (electron.kind === 'binary') {
    // Plain node with the electron package installed: re-run this script inside Electron.
    if (options.dryRun) return print({ shell: 'electron', command: electron.path, args: [thisScript, ...argv], url: options.agentUrl.href });
    process.stderr.write(`erasure-kiosk: starting the kiosk in Electron (${electron.path})\n`);
    return exitOf(spawn(electron.path, [thisScript, ...argv], { stdio: 'inherit' }));
  }
  if (options.dryRun) {
    const args = chromiumArgs(options.agentUrl.href, options.profileDir ?? '<fresh profile>', { windowed: options.windowed, isRoot: systemChromiumDeps.isRoot });
    return print({ shell: 'chromium', command: options.chromiumPath, args, url: options.agentUrl.href, electron: electron.detail });
  }
  assertChromium(options);
  process.stderr.write(`erasure-kiosk: shell: Chromium ${options.chromiumPath} (no Electron binary: ${electron.detail.split('\n')[0]})\n`);
  const log = (line: string) => process.stderr.write(`erasure-kiosk: ${line}\n`);
  await waitForAgent(options.agentUrl, { attempts: 60, delayMs: 1000 }, { fetch: (u) => fetch(u), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), log });
  // The shell stays and watches the page: a crashed, blank or hung page is brought back (issue 34).
  const stop = new AbortController();
  // One profile for every Chromium this shell starts: a relaunch must not leave a new one in RAM each time.
  const watched = { ...options, profileDir: options.profileDir ?? systemChromiumDeps.makeProfileDir() };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());
  await watchChromium(
    { url: options.agentUrl.href, ...WATCHDOG_DEFAULTS },
    { launch: () => watchedChromium(launchChromium(watched)), report: screenReporter(options.agentUrl, log), log, now: () => Date.now(), rendererRssBytes: (pid) => rendererRssBytes(pid) },
    stop.signal,
  );
  return 0;
}

function print(doc: unknown): number {
  process.stdout.write(`${JSON.stringify(doc)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof KioskOptionsError || error instanceof ChromiumMissingError;
    process.stderr.write(`erasure-kiosk: ${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = known && error instanceof KioskOptionsError ? 64 : 1;
  },
);
