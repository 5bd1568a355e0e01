import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentState } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/stack.js';
import { launchChromium, systemChromiumDeps, watchedChromium } from '../../src/main/chromium.js';
import { WATCHDOG_DEFAULTS, watchChromium } from '../../src/main/chromium-watchdog.js';
import type { Cdp } from '../../src/main/cdp-pipe.js';
import { rendererPids, rendererRssBytes } from '../../src/main/renderer-processes.js';
import { screenReporter } from '../../src/main/screen-report.js';
import { buildForKioskE2e, mintToken, startKioskStack, type KioskStack } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A free loopback port: the restarted agent must come back where the page looks for it. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
/** The screen the page shows, or `connecting` while it says it lost the agent (its banner over the last screen). */
const SHOWN = `(document.querySelector('[role=alert]')?.textContent ?? '').includes('Lost the connection') ? 'connecting' : (document.querySelector('[data-screen]')?.dataset.screen ?? '')`;
/** The page is live on an agent: any screen but the connecting one. */
const live = (screen: string | undefined) => screen !== undefined && screen !== '' && screen !== 'connecting';

/**
 * The kiosk shell as the image runs it, on this machine: the real agent (`erasure-agent serve`,
 * simulated machine) serving the built renderer, Debian's Chromium (headless) watched by the
 * shell's watchdog, its reports going to the agent. Issue 34: the screen comes back by itself,
 * the agent's state says so, and the page finds a restarted agent on its own.
 */
describe('the kiosk shell keeps the agent’s page on screen', { timeout: 300_000 }, () => {
  let stack: KioskStack;
  let agent: ChildProcess | undefined;
  let url = '';
  let port = 0;
  let token = '';
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-shell-'));
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  const browsers: Array<{ pid: number | undefined; cdp: Cdp }> = [];
  const logs: string[] = [];

  const startAgentOnPort = async () => {
    writeFileSync(join(dir, 'device-token'), `${token}\n`, { mode: 0o600 });
    const started = await startService(join(REPO, 'engine-agent/bin/erasure-agent.js'), {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dir, 'agent'),
      ERASURE_GATEWAY_URL: stack.gateway.url,
      ERASURE_DEVICE_TOKEN_FILE: join(dir, 'device-token'),
      ERASURE_SIMULATE: '1',
      KIOSK_RENDERER_DIR: join(REPO, 'kiosk/dist/renderer'),
    });
    agent = started.child;
  };
  const state = async (): Promise<AgentState | undefined> => {
    try {
      return (await (await fetch(new URL('/api/state', url))).json()) as AgentState;
    } catch {
      return undefined;
    }
  };
  const until = async (what: () => Promise<boolean>, label: string, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${label}\n${logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** What the page shows now, asked over a DevTools session of the test's own. */
  const screenShown = async (): Promise<string | undefined> => {
    const b = browsers.at(-1);
    if (!b) return undefined;
    try {
      const { targetInfos } = (await b.cdp.send('Target.getTargets', {}, { timeoutMs: 5_000 })) as { targetInfos: Array<{ targetId: string; type: string }> };
      const target = targetInfos.find((t) => t.type === 'page')?.targetId;
      const { sessionId } = (await b.cdp.send('Target.attachToTarget', { targetId: target, flatten: true }, { timeoutMs: 5_000 })) as { sessionId: string };
      const r = (await b.cdp.send('Runtime.evaluate', { expression: SHOWN, returnByValue: true }, { sessionId, timeoutMs: 5_000 })) as { result: { value: string } };
      await b.cdp.send('Target.detachFromTarget', { sessionId }, { timeoutMs: 5_000 });
      return r.result.value;
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    buildForKioskE2e();
    stack = await startKioskStack();
    token = (await mintToken(stack, { quota: 5 })).token;
    port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    await startAgentOnPort();
    running = watchChromium(
      { url, ...WATCHDOG_DEFAULTS, lookEveryMs: 500, memoryEveryMs: 2_000, relaunchDelayMs: 200 },
      {
        launch: () => {
          const child = launchChromium({ agentUrl: new URL(url), windowed: true, chromiumPath: '/usr/bin/chromium', profileDir: join(dir, 'profile') }, systemChromiumDeps, ['--headless=new']);
          const b = watchedChromium(child);
          browsers.push(b);
          return b;
        },
        report: screenReporter(new URL(url), (line) => void logs.push(line)),
        log: (line) => void logs.push(line),
        now: () => Date.now(),
        rendererRssBytes,
      },
      stop.signal,
    );
  }, 300_000);

  afterAll(async () => {
    stop.abort();
    await running;
    await stopService(agent);
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  });

  it('shows the page and says so in the agent’s state, with the renderer’s memory and the screen it draws', async () => {
    await until(async () => (await state())?.screen?.renderer_rss_bytes !== undefined, 'the screen showing in the agent’s state');
    expect((await state())?.screen).toMatchObject({ status: 'showing', reloads: 0 });
    // The screen the page draws, as the page itself names it, is what the shell told the agent.
    await until(async () => ((await state())?.screen?.views ?? []).includes((await screenShown()) ?? '-'), 'the agent told which screen the page draws');
  });

  it('brings the page back when its renderer is killed, and the agent’s state counts the reload with its reason', async () => {
    const pids = rendererPids(browsers.at(-1)?.pid ?? 0);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await until(async () => (await state())?.screen?.reloads === 1 && (await state())?.screen?.status === 'showing', 'the reload counted and the page showing again', 10_000);
    expect((await state())?.screen?.last_reload?.reason).toMatch(/^the page's renderer is gone \((killed|crashed)/);
    await until(async () => live(await screenShown()), 'the page live on the agent again');
  });

  it('finds a restarted agent on its own: the page leaves its connecting screen, and the new agent hears from the shell', async () => {
    await stopService(agent);
    await until(async () => (await screenShown()) === 'connecting', 'the page saying it lost the agent');
    await startAgentOnPort();
    await until(async () => live(await screenShown()), 'the page live on the restarted agent');
    await until(async () => (await state())?.screen?.status === 'showing', 'the restarted agent told the screen shows');
    // Nothing needed a reload: the page reconnected by itself.
    expect(logs.filter((l) => l.startsWith('reload:'))).toHaveLength(1);
  });
});
