import { describe, expect, it } from 'vitest';
import { judge, type JudgeState, type PageLook } from './screen-judge.js';

const limits = { blankMs: 60_000, silentMs: 30_000, unloadedMs: 5_000, busyLoadMs: 180_000 };
const unloaded: PageLook = { kind: 'unloaded', detail: 'not the kiosk page: about:blank' };
const blank: PageLook = { kind: 'blank', detail: 'nothing in #root, document complete' };
const silent: PageLook = { kind: 'silent', detail: 'Runtime.evaluate did not answer within 5 s' };

describe('the watchdog’s judgement of one look at the page', () => {
  it.each<[string, JudgeState, PageLook, number, ReturnType<typeof judge>['action']]>([
    ['a first drawn page is reported showing', { status: undefined }, { kind: 'showing' }, 0, { kind: 'report', status: 'showing' }],
    ['a page still showing is not reported again', { status: 'showing' }, { kind: 'showing' }, 0, { kind: 'none' }],
    ['a crashed renderer is reloaded at once', { status: 'showing' }, { kind: 'crashed', detail: 'is gone (killed, code 9)' }, 0, { kind: 'reload', reason: "the page's renderer is gone (killed, code 9)" }],
    ['a page that was showing and goes blank is reported blank', { status: 'showing' }, blank, 0, { kind: 'report', status: 'blank' }],
    ['a page blank for less than the limit is left to load', { status: 'blank', blankSince: 0 }, blank, 59_999, { kind: 'none' }],
    ['a page blank for the limit is reloaded, saying for how long and what it showed', { status: 'blank', blankSince: 0 }, blank, 60_000, { kind: 'reload', reason: 'the page showed nothing for 60 s (nothing in #root, document complete)' }],
    ['a page silent for less than the limit is waited for', { status: 'showing', silentSince: 0 }, silent, 29_999, { kind: 'none' }],
    ['a page silent for the limit gets a new Chromium', { status: 'showing', silentSince: 0 }, silent, 30_000, { kind: 'relaunch', reason: 'the page did not answer for 30 s (Runtime.evaluate did not answer within 5 s)' }],
  ])('%s', (_name, state, look, now, action) => {
    expect(judge(state, look, now, limits).action).toEqual(action);
  });

  it('gives a reloaded page the whole blank limit again to draw', () => {
    const reloaded = judge({ status: 'blank', blankSince: 0 }, blank, 60_000, limits).next;
    expect(judge(reloaded, blank, 60_000 + 59_999, limits).action).toEqual({ kind: 'none' });
    expect(judge(reloaded, { kind: 'showing' }, 61_000, limits).action).toEqual({ kind: 'report', status: 'showing' });
  });

  it('gives a page reloaded for being blank twice as long each time until it shows, so a slow machine is not kept reloading', () => {
    const once = judge({ status: 'blank', blankSince: 0 }, blank, 60_000, limits).next;
    expect(judge(once, blank, 60_000 + 119_999, limits).action).toEqual({ kind: 'none' });
    const twice = judge(once, blank, 60_000 + 120_000, limits);
    expect(twice.action).toEqual({ kind: 'reload', reason: 'the page showed nothing for 120 s (nothing in #root, document complete)' });
    const shown = judge(twice.next, { kind: 'showing' }, 200_000, limits).next;
    expect(judge(judge(shown, blank, 300_000, limits).next, blank, 360_000, limits).action.kind).toBe('reload');
  });

  it('takes a page that does not answer before it first showed for one still loading: left to load for the busy-load limit, then reloaded, never a new Chromium', () => {
    expect(judge({ status: undefined }, silent, 0, limits).action).toEqual({ kind: 'report', status: 'blank' });
    expect(judge({ status: 'blank', blankSince: 0 }, silent, 30_000, limits).action).toEqual({ kind: 'none' });
    // A reload at the blank limit would start the busy load again (the soak's start-up reloads).
    expect(judge({ status: 'blank', blankSince: 0 }, silent, 60_000, limits).action).toEqual({ kind: 'none' });
    expect(judge({ status: 'blank', blankSince: 0 }, silent, 179_999, limits).action).toEqual({ kind: 'none' });
    expect(judge({ status: 'blank', blankSince: 0 }, silent, 180_000, limits).action).toEqual({ kind: 'reload', reason: 'the page showed nothing for 180 s (Runtime.evaluate did not answer within 5 s)' });
  });

  it('still reloads a page that answers but has drawn nothing at the blank limit, not the busy-load limit', () => {
    expect(judge({ status: 'blank', blankSince: 0 }, blank, 60_000, limits).action.kind).toBe('reload');
  });

  it('loads the kiosk page in a window that never got it (about:blank after a lost first load) once the short limit has passed, not the blank limit', () => {
    const first = judge({ status: undefined }, unloaded, 0, limits);
    expect(first.action).toEqual({ kind: 'report', status: 'blank' });
    expect(judge(first.next, unloaded, 4_999, limits).action).toEqual({ kind: 'none' });
    expect(judge(first.next, unloaded, 5_000, limits).action).toEqual({ kind: 'reload', reason: 'the window had not loaded the kiosk page after 5 s (not the kiosk page: about:blank)' });
  });

  it('gives a window still without the kiosk page twice as long after each load, up to 16 times, and starts over once it shows', () => {
    let state: JudgeState = { status: 'blank', unloadedSince: 0 };
    let now = 0;
    const waits: number[] = [];
    for (let load = 0; load < 6; load++) {
      const before = now;
      while (judge(state, unloaded, now, limits).action.kind !== 'reload') now += 1_000;
      waits.push(now - before);
      state = judge(state, unloaded, now, limits).next;
    }
    expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 80_000]);
    const shown = judge(state, { kind: 'showing' }, now, limits).next;
    expect(judge(judge(shown, unloaded, now, limits).next, unloaded, now + 5_000, limits).action.kind).toBe('reload');
  });

  it('reports which screens a drawn page shows, again when they change, and not while they stay', () => {
    const locked = judge({ status: undefined }, { kind: 'showing', views: ['locked'] }, 0, limits);
    expect(locked.action).toEqual({ kind: 'report', status: 'showing', views: ['locked'] });
    expect(judge(locked.next, { kind: 'showing', views: ['locked'] }, 5_000, limits).action).toEqual({ kind: 'none' });
    expect(judge(locked.next, { kind: 'showing', views: ['station', 'bay-view'] }, 10_000, limits).action).toEqual({ kind: 'report', status: 'showing', views: ['station', 'bay-view'] });
  });

  it('forgets silence once the page answers', () => {
    const answered = judge({ status: 'showing', silentSince: 0 }, { kind: 'showing' }, 20_000, limits).next;
    expect(judge(answered, silent, 40_000, limits).action).toEqual({ kind: 'none' });
  });
});
