import { Type, type Static } from '@sinclair/typebox';

/**
 * The machine's own screen, as the kiosk shell's watchdog sees it (issue 34). The shell watches
 * its page and reports here (POST /api/screen); the agent keeps the count and the last reload in
 * `AgentState.screen`, so a floor view can tell a station whose screen had to be brought back.
 */

/** `showing`: the kiosk page is drawn; `blank`: the window shows nothing (yet); `reloaded`: the shell just reloaded or relaunched it. */
export const SCREEN_STATUSES = ['showing', 'blank', 'reloaded'] as const;
export const ScreenStatus = Type.Union(SCREEN_STATUSES.map((s) => Type.Literal(s)));
export type ScreenStatus = Static<typeof ScreenStatus>;

/** The kiosk's screens a drawn page shows, by their `data-screen` names (`locked`, `station`, `bay-view`…). */
export const ScreenViews = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 8 });

/** One report of the shell: what the screen shows now, and, with `reloaded`, why it was reloaded. */
export const ScreenReport = Type.Object(
  {
    status: ScreenStatus,
    /** With `reloaded`: the reason in words (a crashed renderer, a page that showed nothing for N s, …). */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    /** Resident memory of the page's renderer processes, sent about once a minute while the page shows. */
    renderer_rss_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    /** With `showing`: which of the kiosk's screens the page draws (its `data-screen` names, outermost first). */
    views: Type.Optional(ScreenViews),
  },
  { additionalProperties: false },
);
export type ScreenReport = Static<typeof ScreenReport>;

/** `AgentState.screen`: absent until the shell first reported (an Electron or remote-only kiosk may never). */
export const ScreenView = Type.Object(
  {
    status: ScreenStatus,
    /** When the shell last reported (ISO 8601). */
    reported_at: Type.String(),
    /** Reloads and relaunches of the page since the agent started. */
    reloads: Type.Integer({ minimum: 0 }),
    last_reload: Type.Optional(Type.Object({ reason: Type.String(), at: Type.String() }, { additionalProperties: false })),
    /** The renderer's memory as last reported, and the agent's own at that moment (a soak watches both for leaks). */
    renderer_rss_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    agent_rss_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The screens the page showed at the last `showing` report: a check of the machine's own display can wait for the one it wants. */
    views: Type.Optional(ScreenViews),
  },
  { additionalProperties: false },
);
export type ScreenView = Static<typeof ScreenView>;
