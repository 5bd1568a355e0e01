import type { ScreenReport } from '@erasure/shared';
import type { Cdp } from './cdp-pipe.js';
import { judge, type JudgeAction, type JudgeLimits, type JudgeState, type PageLook } from './screen-judge.js';

/** One running Chromium with its DevTools pipe. */
export interface WatchedBrowser {
  readonly pid: number | undefined;
  readonly cdp: Cdp;
  /** Resolves with how it ended (exit code or signal), once it has. */
  readonly exited: Promise<string>;
  kill(): void;
}

/** What the watchdog needs from the world; the shell passes the real ones, the tests too (a real Chromium). */
export interface WatchdogDeps {
  readonly launch: () => WatchedBrowser;
  /** Tells the agent (POST /api/screen); never throws. */
  readonly report: (r: ScreenReport) => Promise<void>;
  readonly log: (line: string) => void;
  readonly now: () => number;
  readonly rendererRssBytes: (browserPid: number) => number | undefined;
}

export interface WatchdogOptions extends JudgeLimits {
  /** The kiosk page; a reload goes back to it whatever the window showed. */
  readonly url: string;
  /** Time between looks at the page (a crash is acted on at once, without waiting for the next look). */
  readonly lookEveryMs: number;
  /** How often the renderer's memory is reported while the page shows. */
  readonly memoryEveryMs: number;
  /** Pause before a new Chromium after the last one ended, so a browser that cannot start does not spin. */
  readonly relaunchDelayMs: number;
}

/**
 * The defaults of the image: a crash is reloaded at once, a window that never got the kiosk page
 * after 5 s, a page blank for a minute or silent for 30 s is brought back.
 */
export const WATCHDOG_DEFAULTS = { blankMs: 60_000, silentMs: 30_000, unloadedMs: 5_000, busyLoadMs: 180_000, lookEveryMs: 5_000, memoryEveryMs: 60_000, relaunchDelayMs: 2_000 } as const;

/**
 * Whether the kiosk is drawn: the page is the agent's, React mounted something in #root, and it
 * takes room on the screen. A white window (an empty root after a script failed, Chromium's own
 * error page, a page still loading) is not.
 */
const lookExpression = (origin: string) => `(() => {
  const root = document.getElementById('root');
  if (location.origin !== ${JSON.stringify(origin)}) return 'unloaded: not the kiosk page: ' + location.href;
  if (!root || root.childElementCount === 0) return 'nothing in #root, document ' + document.readyState;
  if (root.getBoundingClientRect().height <= 0) return '#root takes no room';
  return 'showing:' + [...document.querySelectorAll('[data-screen]')].slice(0, 8).map((e) => e.getAttribute('data-screen').slice(0, 40)).join(' ');
})()`;

/**
 * Runs the kiosk in Chromium and keeps it on screen for as long as the shell runs (issue 34): it
 * watches the page over the DevTools pipe, reloads a crashed or blank page, starts a new
 * Chromium when the old one stopped answering or exited, and reports each reload with its reason
 * to the agent, which shows it in AgentState.screen. A flat loop (STYLE C); `stop` ends it.
 */
export async function watchChromium(opts: WatchdogOptions, deps: WatchdogDeps, stop: AbortSignal): Promise<void> {
  let reason: string | undefined;
  while (!stop.aborted) {
    const browser = deps.launch();
    if (reason) await deps.report({ status: 'reloaded', reason });
    reason = await watchOne(browser, opts, deps, stop);
    browser.kill();
    await browser.exited;
    if (stop.aborted) return;
    deps.log(`reload: ${reason}`);
    await sleep(opts.relaunchDelayMs, stop);
  }
}

/** Watches one Chromium until it has to go; resolves with why. */
async function watchOne(browser: WatchedBrowser, opts: WatchdogOptions, deps: WatchdogDeps, stop: AbortSignal): Promise<string> {
  const { cdp } = browser;
  let ended: string | undefined;
  let crashed: string | undefined;
  let wake: () => void = () => {};
  void browser.exited.then((how) => {
    ended = `Chromium exited (${how})`;
    wake();
  });
  stop.addEventListener('abort', () => wake(), { once: true });
  let session: string | undefined;
  let pageTarget: string | undefined;
  // One crash is told twice (Target.targetCrashed to the browser, Inspector.targetCrashed to our
  // session), and on a loaded machine the second can come after the first was acted on. Once a
  // crash was reloaded, further crash events count only after the page has been seen again.
  let crashReloaded = false;
  cdp.onEvent((e) => {
    const crashedNow = (e.method === 'Target.targetCrashed' && e.params.targetId === pageTarget) || (e.method === 'Inspector.targetCrashed' && e.sessionId === session);
    if (!crashedNow || crashReloaded) return;
    const status = typeof e.params.status === 'string' ? e.params.status : 'crashed';
    crashed ??= `is gone (${status}${typeof e.params.errorCode === 'number' ? `, code ${e.params.errorCode}` : ''})`;
    wake();
  });
  const commandMs = Math.max(opts.lookEveryMs, 5_000);
  // A starting Chromium is given ten times the silence limit to answer at all: under an emulator
  // it took more than 30 s (seen in the soak), and ending it then only starts the wait over.
  const startupMs = opts.silentMs * 10;
  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true }, { timeoutMs: startupMs });
    // Chromium opens the --app window itself; find its page (it may take a moment to exist).
    for (let tries = 0; !pageTarget && !ended && !stop.aborted; tries++) {
      const { targetInfos } = (await cdp.send('Target.getTargets', {}, { timeoutMs: startupMs })) as { targetInfos?: Array<{ targetId: string; type: string }> };
      pageTarget = targetInfos?.find((t) => t.type === 'page')?.targetId;
      if (!pageTarget && tries * 500 >= startupMs) return 'Chromium opened no page';
      if (!pageTarget) await sleep(500, stop);
    }
    if (!pageTarget) return ended ?? 'stopped';
    session = String((await cdp.send('Target.attachToTarget', { targetId: pageTarget, flatten: true }, { timeoutMs: startupMs })).sessionId);
    // Still starting: the page's first answer gets the start-up limit too (the soak's guest took
    // more than 5 s, and each new Chromium only began the slow start again).
    await cdp.send('Inspector.enable', {}, { sessionId: session, timeoutMs: startupMs });
  } catch (error) {
    return ended ?? `DevTools did not answer (${(error as Error).message})`;
  }

  let state: JudgeState = { status: undefined };
  let memoryAt = 0;
  while (!stop.aborted) {
    if (ended) return ended;
    const look: PageLook = crashed ? { kind: 'crashed', detail: crashed } : await lookAt(cdp, session, opts.url, commandMs);
    crashed = undefined;
    if (ended) return ended;
    if (look.kind === 'crashed') crashReloaded = true;
    else if (look.kind === 'showing') crashReloaded = false;
    const step = judge(state, look, deps.now(), opts);
    state = step.next;
    // While the page shows, the renderer's memory rides along about once a minute (a soak watches it for leaks).
    const memoryDue = state.status === 'showing' && browser.pid !== undefined && deps.now() - memoryAt >= opts.memoryEveryMs;
    if (memoryDue && (step.action.kind === 'none' || step.action.kind === 'report')) {
      memoryAt = deps.now();
      const rss = browser.pid !== undefined ? deps.rendererRssBytes(browser.pid) : undefined;
      await deps.report({ status: 'showing', ...(state.views ? { views: [...state.views] } : {}), ...(rss !== undefined ? { renderer_rss_bytes: rss } : {}) });
    } else {
      const outcome = await act(step.action, cdp, session, opts, deps);
      if (outcome) return outcome;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, opts.lookEveryMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  return 'stopped';
}

/** Carries out the judge's action; resolves with a reason when this Chromium has to go. */
async function act(action: JudgeAction, cdp: Cdp, session: string, opts: WatchdogOptions, deps: WatchdogDeps): Promise<string | undefined> {
  switch (action.kind) {
    case 'none':
      return undefined;
    case 'report':
      await deps.report({ status: action.status, ...(action.views ? { views: [...action.views] } : {}) });
      return undefined;
    case 'relaunch':
      return action.reason;
    case 'reload':
      deps.log(`reload: ${action.reason}`);
      try {
        await cdp.send('Page.navigate', { url: opts.url }, { sessionId: session, timeoutMs: opts.silentMs });
      } catch (error) {
        return `${action.reason}; reloading it failed (${(error as Error).message})`;
      }
      await deps.report({ status: 'reloaded', reason: action.reason });
      return undefined;
  }
}

async function lookAt(cdp: Cdp, session: string, url: string, timeoutMs: number): Promise<PageLook> {
  try {
    const r = (await cdp.send('Runtime.evaluate', { expression: lookExpression(new URL(url).origin), returnByValue: true }, { sessionId: session, timeoutMs })) as { result?: { value?: unknown } };
    const value = r.result?.value;
    if (typeof value === 'string' && value.startsWith('showing:')) return { kind: 'showing', views: value.slice('showing:'.length).split(' ').filter(Boolean) };
    if (typeof value === 'string' && value.startsWith('unloaded: ')) return { kind: 'unloaded', detail: value.slice('unloaded: '.length) };
    return { kind: 'blank', detail: typeof value === 'string' ? value : 'no answer from the page script' };
  } catch (error) {
    const message = (error as Error).message;
    // Only a look that got no answer in time is silence; an answer that is an error (no page context while it loads) is a blank page.
    return / did not answer /.test(message) ? { kind: 'silent', detail: message } : { kind: 'blank', detail: message };
  }
}

/** Resolves after `ms`, or at once when stopped. */
function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    stop.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
