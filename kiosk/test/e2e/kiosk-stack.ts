import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../../test/support/chromium.js';
import { startService, startStack, stopService } from '../../../test/support/stack.js';

const KIOSK_DIR = fileURLToPath(new URL('../../', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const RENDERER_DIST = join(KIOSK_DIR, 'dist/renderer');
const AGENT_BIN = join(REPO, 'engine-agent/bin/erasure-agent.js');
/** Screenshots of every screen, at both kiosk resolutions, in the repo's gitignored test-results/. */
export const SCREENS_DIR = join(REPO, 'test-results/kiosk');
export const RESOLUTIONS = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
] as const;

const newestMtime = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const path = join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }, 0);

/** Runs `fn` holding a lock directory: the kiosk's e2e files run in parallel and must not build over each other. */
function withBuildLock(fn: () => void): void {
  const lock = join(KIOSK_DIR, 'dist/.e2e-build-lock');
  mkdirSync(join(KIOSK_DIR, 'dist'), { recursive: true });
  const until = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock); // atomic: exactly one process gets it
      break;
    } catch {
      if (Date.now() > until) throw new Error(`build lock ${lock} held for 3 minutes; remove it if no build runs`);
      execFileSync('sleep', ['0.2']);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds what the test runs from the binaries: the TypeScript projects (incremental) and the
 * renderer bundle unless it is newer than every renderer source and the shared contract.
 */
export function buildForKioskE2e(): void {
  withBuildLock(() => {
    execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-b', 'shared', 'cloud', 'gateway', 'engine-agent'], { cwd: REPO, stdio: 'inherit' });
    const index = join(RENDERER_DIST, 'index.html');
    const sources = Math.max(newestMtime(join(KIOSK_DIR, 'src/renderer')), newestMtime(join(REPO, 'shared/src/contracts')));
    if (existsSync(index) && statSync(index).mtimeMs > sources) return;
    execFileSync(process.execPath, [join(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(KIOSK_DIR, 'vite.config.ts'), '--logLevel', 'warn'], { cwd: KIOSK_DIR, stdio: 'inherit' });
  });
}

export type Stack = Awaited<ReturnType<typeof startStack>>;
/** The stack of `startKioskStack`: the real cloud and gateway with one account. */
export type KioskStack = Stack & { accountId: string };

/** The real cloud and gateway from their binaries, with one account. */
export async function startKioskStack(): Promise<KioskStack> {
  const stack = await startStack();
  const account = (await stack.cli('admin', 'create-account', '--name', 'Kiosk Refurb')) as { id: string };
  return { ...stack, accountId: account.id };
}

/** Mints a device token for the account (`--quota n`), optionally set to another status. */
export async function mintToken(stack: KioskStack, opts: { quota: number; status?: string }): Promise<{ token: string; jti: string }> {
  const t = (await stack.cli('admin', 'mint-device-token', '--account', stack.accountId, '--quota', String(opts.quota))) as { token: string; jti: string };
  if (opts.status) await stack.cli('admin', 'set-token-status', '--jti', t.jti, '--status', opts.status);
  return t;
}

export interface Agent {
  readonly url: string;
  readonly dataDir: string;
  /** Everything the agent wrote to stdout and stderr since it started listening (its log lines). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `erasure-agent serve` in simulate mode on a free loopback port, serving the built renderer.
 * `real` runs it on this machine's tools instead, with `env` added (a PATH of fake tools).
 */
export async function startAgent(gatewayUrl: string, token: string, real?: { env: Record<string, string> }): Promise<Agent> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-agent-'));
  const tokenFile = join(dataDir, 'device-token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const { url, child } = await startService(AGENT_BIN, {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: join(dataDir, 'agent'),
    ERASURE_GATEWAY_URL: gatewayUrl,
    ERASURE_DEVICE_TOKEN_FILE: tokenFile,
    ...(real ? real.env : { ERASURE_SIMULATE: '1' }),
    KIOSK_RENDERER_DIR: RENDERER_DIST,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    url,
    dataDir: join(dataDir, 'agent'),
    output: () => output,
    async stop() {
      // SIGTERM, and SIGKILL if the agent has not exited within 5 s (a busy CI machine must not hang the suite).
      const exited = await Promise.race([stopService(child).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      if (!exited) {
        process.stderr.write(`kiosk e2e: agent ${url} ignored SIGTERM for 5 s; killing it\n`);
        child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The agent of a kiosk session: a token of `quota`, and `real` as `startAgent` takes it. */
export interface SessionAgent {
  readonly quota: number;
  readonly real?: { env: Record<string, string> };
}

/**
 * One describe block's kiosk session: the built binaries, the real stack, Debian's Chromium on
 * one page and, when asked, an agent. The test calls a `start…` in `beforeAll` and `stop` in
 * `afterAll`; `stop` closes the page's event stream before it stops the agent, which waits for
 * open connections, then closes the browser and stops the stack.
 */
export function kioskSession() {
  let stack: KioskStack | undefined;
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>> | undefined;
  let agent: Agent | undefined;
  const open = async (withAgent?: SessionAgent) => {
    buildForKioskE2e();
    stack = await startKioskStack();
    if (withAgent) {
      const { token } = await mintToken(stack, { quota: withAgent.quota });
      agent = await startAgent(stack.gateway.url, token, withAgent.real);
    }
    browser = await launchKioskBrowser();
    return { stack, page: browser.page };
  };
  const stopAgent = async () => {
    await browser?.page.goto('about:blank');
    await agent?.stop();
    agent = undefined;
  };
  return {
    /** Starts the stack and the browser, no agent (the tests start their own with `startAgent`). */
    start: () => open(),
    /** Starts the stack, an agent with a new token of the account and the browser. */
    async startWithAgent(withAgent: SessionAgent): Promise<{ stack: KioskStack; page: Page; agent: Agent }> {
      const opened = await open(withAgent);
      return { ...opened, agent: agent as Agent };
    },
    /** Starts an agent as `startAgent` does, the session's previous agent stopped first. */
    async startAgent(...args: Parameters<typeof startAgent>): Promise<Agent> {
      await stopAgent();
      agent = await startAgent(...args);
      return agent;
    },
    /** Stops the session's agent, the page's event stream closed first. */
    stopAgent,
    async stop(): Promise<void> {
      await stopAgent();
      await browser?.close();
      await stack?.stop();
    },
  };
}

/** From the Drives step with drives ticked, "Next: Erase →" to the typed confirmation (issue 28 item 9). */
export async function toConfirmation(page: Page): Promise<void> {
  await page.locator('.next-step button', { hasText: 'Next: Erase' }).click();
  await page.waitForSelector('[data-screen="erase"] #confirm-text');
}

/** Reads the agent's state as the kiosk would (GET /api/state). */
export async function agentState(agent: Agent): Promise<any> {
  return (await fetch(new URL('/api/state', agent.url))).json();
}

/** Debian's Chromium, headless, fresh profile, with a fake camera (webcam test) and touch input. */
export async function launchKioskBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  return launchChromium({
    extraArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
    viewport: RESOLUTIONS[0],
    hasTouch: true,
  });
}

/** Saves the current screen at every kiosk resolution (`<name>-<w>x<h>.png`), then returns to the first. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  for (const size of RESOLUTIONS) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150); // one layout and transition frame after the resize
    await page.screenshot({ path: join(SCREENS_DIR, `${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(RESOLUTIONS[0]);
}
