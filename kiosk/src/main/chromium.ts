import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { cdpOverPipe } from './cdp-pipe.js';
import type { WatchedBrowser } from './chromium-watchdog.js';
import type { KioskOptions } from './options.js';

/** No Chromium to fall back to: the message says what to install or what to open by hand. */
export class ChromiumMissingError extends Error {
  readonly code = 'KIOSK_CHROMIUM_MISSING' as const;
  constructor(
    readonly path: string,
    readonly url: string,
  ) {
    super(`no Electron binary and no Chromium at ${path}: install Debian's chromium package (or set KIOSK_CHROMIUM), or open ${url} in a browser`);
  }
}

/** What the launcher needs from the system; tests pass fakes. */
export interface ChromiumDeps {
  readonly isExecutable: (path: string) => boolean;
  readonly spawn: (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;
  readonly makeProfileDir: () => string;
  /** Chromium refuses to start as root unless its own sandbox is turned off. */
  readonly isRoot: boolean;
}

/** The real system. */
export const systemChromiumDeps: ChromiumDeps = {
  isExecutable: (path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  spawn: (command, args, options) => spawn(command, [...args], options),
  makeProfileDir: () => mkdtempSync(join(tmpdir(), 'erasure-kiosk-')),
  isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
};

/**
 * Chromium's command line for the kiosk. `--app` drops the address bar and tabs, `--kiosk`
 * makes it full screen with no way out but the shell; the rest keeps a boot image quiet:
 * no first-run dialogs, no translate bar, no crash bubble, no background calls home.
 */
export function chromiumArgs(url: string, profileDir: string, opts: { windowed: boolean; isRoot: boolean }): string[] {
  return [
    ...(opts.windowed ? ['--window-size=1280,800'] : ['--kiosk', '--start-fullscreen']),
    `--app=${url}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--noerrdialogs',
    '--disable-translate',
    '--disable-features=Translate',
    '--disable-session-crashed-bubble',
    '--disable-infobars',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-pinch',
    '--overscroll-history-navigation=0',
    // The shell's watchdog watches the page over DevTools on fds 3 and 4 (no port on the network).
    '--remote-debugging-pipe',
    // The live image runs the kiosk as root; Chromium exits at once as root with its sandbox on.
    ...(opts.isRoot ? ['--no-sandbox'] : []),
  ];
}

/** Throws ChromiumMissingError when there is no Chromium to fall back to (checked before waiting for the agent). */
export function assertChromium(options: Pick<KioskOptions, 'agentUrl' | 'chromiumPath'>, deps: Pick<ChromiumDeps, 'isExecutable'> = systemChromiumDeps): void {
  if (!deps.isExecutable(options.chromiumPath)) throw new ChromiumMissingError(options.chromiumPath, options.agentUrl.href);
}

/**
 * Opens the agent URL in Chromium, or throws ChromiumMissingError when there is none. Its output
 * goes to the shell's (the journal on the image: a crash leaves its lines there), and fds 3 and 4
 * are the DevTools pipe the watchdog uses. `extraArgs` come last (tests add `--headless`).
 */
export function launchChromium(options: Pick<KioskOptions, 'agentUrl' | 'windowed' | 'chromiumPath' | 'profileDir'>, deps: ChromiumDeps = systemChromiumDeps, extraArgs: readonly string[] = []): ChildProcess {
  const url = options.agentUrl.href;
  assertChromium(options, deps);
  const args = chromiumArgs(url, options.profileDir ?? deps.makeProfileDir(), { windowed: options.windowed, isRoot: deps.isRoot });
  return deps.spawn(options.chromiumPath, [...args, ...extraArgs], { stdio: ['ignore', 'inherit', 'inherit', 'pipe', 'pipe'] });
}

/** A launched Chromium as the watchdog holds it: its DevTools pipe, how it ended, and a way to end it. */
export function watchedChromium(child: ChildProcess): WatchedBrowser {
  const [, , , toChromium, fromChromium] = child.stdio;
  if (!(toChromium instanceof Writable) || !(fromChromium instanceof Readable)) throw new Error('Chromium was started without its DevTools pipe');
  const exited = new Promise<string>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? `code ${child.exitCode}`);
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
  });
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Asked first, so it takes its helpers down with it; a browser that hangs is killed after 5 s.
    child.kill('SIGTERM');
    const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
    void exited.then(() => clearTimeout(hard));
  };
  return { pid: child.pid, cdp: cdpOverPipe(toChromium, fromChromium), exited, kill };
}
