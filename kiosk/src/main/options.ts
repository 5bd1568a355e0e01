import { parseArgs } from 'node:util';

/** How `erasure-kiosk` was asked to run, parsed once from argv and the environment (STYLE F). */
export interface KioskOptions {
  /** The agent's origin; the renderer is served there and the window may go nowhere else. */
  readonly agentUrl: URL;
  /** A normal window instead of full-screen kiosk mode (`npm start` on a developer's desktop). */
  readonly windowed: boolean;
  /** Where Debian installs Chromium; used when no Electron binary is present. */
  readonly chromiumPath: string;
  /** Chromium's profile directory; a fresh one per boot keeps no state between machines. */
  readonly profileDir: string | undefined;
  /** Only print what would be launched (tests, and machines without a display). */
  readonly dryRun: boolean;
}

/** The command line or environment does not describe a usable kiosk. */
export class KioskOptionsError extends Error {
  readonly code = 'KIOSK_OPTIONS_INVALID' as const;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Parses `erasure-kiosk [--url URL] [--windowed] [--dry-run]`. The agent URL must be loopback
 * http: the agent's API can erase drives, so the kiosk never points a window anywhere else.
 */
export function parseKioskOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): KioskOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      windowed: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'profile-dir': { type: 'string' },
    },
    // Electron and Chromium add switches of their own to argv; tolerate them rather than fail to boot.
    strict: false,
  });
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const raw = str(values.url) ?? str(env.ERASURE_AGENT_URL) ?? 'http://127.0.0.1:7070';
  let agentUrl: URL;
  try {
    agentUrl = new URL(raw);
  } catch {
    throw new KioskOptionsError(`not a URL: ${raw}`);
  }
  if (agentUrl.protocol !== 'http:' || !LOOPBACK.has(agentUrl.hostname)) {
    throw new KioskOptionsError(`the agent URL must be http on loopback (127.0.0.1, localhost, [::1]), got ${raw}`);
  }
  return {
    agentUrl: new URL('/', agentUrl),
    windowed: values.windowed === true,
    chromiumPath: str(env.KIOSK_CHROMIUM) ?? '/usr/bin/chromium',
    profileDir: str(values['profile-dir']),
    dryRun: values['dry-run'] === true,
  };
}
