import type { ScreenStatus } from '@erasure/shared';

/** What one look at the page found. */
export type PageLook =
  /** Drawn, with the kiosk screens it shows (`data-screen` names, outermost first). */
  | { readonly kind: 'showing'; readonly views?: readonly string[] }
  /**
   * The window never got the kiosk page: it is still on about:blank, or on the browser's own error
   * page after a load failed. Under an emulator Chromium's network service died while Chromium
   * started and took the window's first load with it (issue 34); nothing loads it again but us.
   */
  | { readonly kind: 'unloaded'; readonly detail: string }
  /** The window is up but the kiosk is not drawn in it (an empty root, a browser error page). */
  | { readonly kind: 'blank'; readonly detail: string }
  /** The page did not answer the look at all (a hung renderer, or a browser that stopped listening). */
  | { readonly kind: 'silent'; readonly detail: string }
  /** Chromium said the page's renderer is gone (crashed, killed, out of memory). */
  | { readonly kind: 'crashed'; readonly detail: string };

/** How long the screen may stay blank or silent before the shell acts. */
export interface JudgeLimits {
  readonly blankMs: number;
  readonly silentMs: number;
  /** How long a window that never got the kiosk page is left before the shell loads it (doubling per load). */
  readonly unloadedMs: number;
  /**
   * How long a page that has not drawn yet and is too busy to answer is left to finish its load.
   * Longer than `blankMs`: reloading a page busy loading starts that load again from the start.
   */
  readonly busyLoadMs: number;
}

/** What the watchdog remembers between looks. */
export interface JudgeState {
  /** Last status reported to the agent; undefined before the first report. */
  readonly status: ScreenStatus | undefined;
  /** The screens last reported showing, so a change of screen is reported too. */
  readonly views?: readonly string[];
  readonly blankSince?: number;
  readonly silentSince?: number;
  /** Reloads for a blank page since it last showed: each doubles the time the next load gets. */
  readonly blankReloads?: number;
  readonly unloadedSince?: number;
  /** Loads of a window that never got the kiosk page, since it last showed. */
  readonly loads?: number;
}

export type JudgeAction =
  | { readonly kind: 'none' }
  | { readonly kind: 'report'; readonly status: 'showing' | 'blank'; readonly views?: readonly string[] }
  /** Load the kiosk page again in the same window (a new renderer when the old one is gone). */
  | { readonly kind: 'reload'; readonly reason: string }
  /** Chromium itself is not answering: end it and start a new one. */
  | { readonly kind: 'relaunch'; readonly reason: string };

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * One step of the watchdog (issue 34), a pure function of what it saw and when: a crashed
 * renderer is reloaded at once; a page that shows nothing for `blankMs` is reloaded; a page that
 * does not answer for `silentMs` gets a new Chromium. After a reload the blank clock starts
 * again; a page reloaded for being blank gets twice as long each time (up to 16x) until it
 * shows, so a machine too slow to draw it in `blankMs` is not kept reloading forever.
 */
export function judge(state: JudgeState, look: PageLook, now: number, limits: JudgeLimits): { next: JudgeState; action: JudgeAction } {
  switch (look.kind) {
    case 'showing': {
      const views = look.views ?? [];
      const same = state.status === 'showing' && (state.views ?? []).join(' ') === views.join(' ');
      return { next: { status: 'showing', views }, action: same ? { kind: 'none' } : { kind: 'report', status: 'showing', ...(look.views ? { views } : {}) } };
    }
    case 'unloaded': {
      // A load of our own is awaited until it commits, so this never cuts one short; a window still
      // without the page gets twice as long each time, so a slow machine is not kept reloading.
      const since = state.unloadedSince ?? now;
      const loads = state.loads ?? 0;
      if (now - since >= limits.unloadedMs * 2 ** Math.min(loads, 4)) {
        return { next: { status: 'reloaded', unloadedSince: now, loads: loads + 1 }, action: { kind: 'reload', reason: `the window had not loaded the kiosk page after ${seconds(now - since)} (${look.detail})` } };
      }
      const report = state.status === 'showing' || state.status === undefined;
      return { next: { status: report ? 'blank' : state.status, unloadedSince: since, loads }, action: report ? { kind: 'report', status: 'blank' } : { kind: 'none' } };
    }
    case 'crashed':
      return { next: { status: 'reloaded', blankSince: now }, action: { kind: 'reload', reason: `the page's renderer ${look.detail}` } };
    case 'blank': {
      const since = state.blankSince ?? now;
      const reloads = state.blankReloads ?? 0;
      if (now - since >= limits.blankMs * 2 ** Math.min(reloads, 4)) {
        return { next: { status: 'reloaded', blankSince: now, blankReloads: reloads + 1 }, action: { kind: 'reload', reason: `the page showed nothing for ${seconds(now - since)} (${look.detail})` } };
      }
      // Blank before the first draw is the page loading; only a page that was showing going blank is news.
      const report = state.status === 'showing' || state.status === undefined;
      return { next: { status: report ? 'blank' : state.status, blankSince: since, blankReloads: reloads }, action: report ? { kind: 'report', status: 'blank' } : { kind: 'none' } };
    }
    case 'silent': {
      // Before its first draw a page busy loading may not answer either: that is loading, judged as a
      // blank page, but given `busyLoadMs`. On a starved guest (issue 34's soak, TCG at load 15) the
      // page took over a minute to load, and each reload at the blank limit began the load again.
      if (state.status !== 'showing' && state.silentSince === undefined) return judge(state, { kind: 'blank', detail: look.detail }, now, { ...limits, blankMs: limits.busyLoadMs });
      const since = state.silentSince ?? now;
      if (now - since >= limits.silentMs) return { next: { status: 'reloaded', blankSince: now }, action: { kind: 'relaunch', reason: `the page did not answer for ${seconds(now - since)} (${look.detail})` } };
      return { next: { ...state, silentSince: since }, action: { kind: 'none' } };
    }
    default:
      return assertNever(look);
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected look ${JSON.stringify(x)}`);
}
