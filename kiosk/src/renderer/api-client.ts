import { parseAgentState, parseDriveProgress, parseJobChoices, parseJobDetailsSaved, type AgentIntent, type DriveProgress, type JobChoices, type JobDetailsSaved, type KioskAgentState, type KioskJobDetails } from './contract.js';

/** Where the connection to the agent stands; `attempt` counts reconnects since the last live stream. */
export type ConnectionStatus =
  | { readonly status: 'connecting'; readonly attempt: number; readonly lastError?: string; readonly retryInMs?: number }
  | { readonly status: 'live' };

export interface StreamHandlers {
  readonly onState: (s: KioskAgentState) => void;
  readonly onProgress: (p: DriveProgress) => void;
  readonly onConnection: (c: ConnectionStatus) => void;
}

/** An intent's answer: the agent decides, and says why when it refuses. */
export type IntentResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** The renderer's only way to the agent (ARCHITECTURE #9): the SSE stream in, intents out. */
export interface AgentApi {
  subscribe(handlers: StreamHandlers): () => void;
  send(intent: AgentIntent): Promise<IntentResult>;
  /** Job details typed or scanned at the Notes step (issue 31 item 6): saved as the cloud stored them, or its refusal in plain words. */
  jobDetails?(details: KioskJobDetails): Promise<{ readonly ok: true; readonly saved: JobDetailsSaved } | { readonly ok: false; readonly error: string }>;
  /** The account's customers and lots, and whether others may be typed; undefined when the service does not answer. */
  jobChoices?(): Promise<JobChoices | undefined>;
}

/** The browser APIs the client uses; tests pass fakes. */
export interface ClientDeps {
  readonly fetch: typeof fetch;
  readonly openStream: (url: string) => EventSourceLike;
  readonly schedule: (fn: () => void, ms: number) => () => void;
}

export interface EventSourceLike {
  onopen: ((e: unknown) => void) | null;
  onerror: ((e: unknown) => void) | null;
  addEventListener(type: string, listener: (e: { data: string }) => void): void;
  close(): void;
}

/** Reconnect delay: min(cap, base * 2^n), short enough that a restarted agent is seen within seconds. */
export const reconnectDelay = (attempt: number) => Math.min(5000, 500 * 2 ** Math.max(0, attempt - 1));

const parseJson = (data: string): unknown => {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined; // an unparsable message is dropped, never half-applied
  }
};

/** Builds the client for the agent at `base` (the page's own origin in production). */
export function createAgentApi(base: string, deps: ClientDeps): AgentApi {
  return {
    subscribe(handlers) {
      let attempt = 0;
      let stream: EventSourceLike | undefined;
      let cancelTimer: (() => void) | undefined;
      let closed = false;
      let live = false;
      const open = () => {
        if (closed) return;
        handlers.onConnection({ status: 'connecting', attempt: attempt + 1 });
        const es = deps.openStream(new URL('/api/events', base).href);
        stream = es;
        es.addEventListener('state', (e) => {
          const s = parseAgentState(parseJson(e.data));
          if (!s) {
            // A state that does not match the contract (an agent of another version) shows nothing but the reason.
            if (!live) handlers.onConnection({ status: 'connecting', attempt: attempt + 1, lastError: 'the agent sent a state this kiosk does not understand (version mismatch?)' });
            return;
          }
          // The first snapshot, not the socket opening, makes the connection live: only then is there something true to show.
          if (!live) handlers.onConnection({ status: 'live' });
          attempt = 0;
          live = true;
          handlers.onState(s);
        });
        es.addEventListener('progress', (e) => {
          const p = parseDriveProgress(parseJson(e.data));
          if (p) handlers.onProgress(p);
        });
        es.onerror = () => {
          // Own the retry (instead of EventSource's silent one) so the screen can show the attempts.
          es.close();
          live = false;
          attempt += 1;
          const retryInMs = reconnectDelay(attempt);
          handlers.onConnection({ status: 'connecting', attempt, lastError: 'the agent does not answer', retryInMs });
          cancelTimer = deps.schedule(open, retryInMs);
        };
      };
      open();
      return () => {
        closed = true;
        cancelTimer?.();
        stream?.close();
      };
    },
    async send(intent) {
      try {
        const res = await deps.fetch(new URL('/api/intents', base).href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(intent) });
        if (res.ok) return { ok: true };
        const body = parseJson(await res.text()) as { error?: unknown; message?: unknown } | undefined;
        const text = typeof body?.error === 'string' ? body.error : typeof body?.message === 'string' ? body.message : `HTTP ${res.status}`;
        return { ok: false, error: text };
      } catch (error) {
        return { ok: false, error: `the agent does not answer (${error instanceof Error ? error.message : String(error)})` };
      }
    },
    async jobDetails(details) {
      try {
        const res = await deps.fetch(new URL('/api/job_details', base).href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(details) });
        const body = parseJson(await res.text());
        const saved = res.ok ? parseJobDetailsSaved(body) : undefined;
        if (saved) return { ok: true, saved };
        const text = (body as { error?: unknown } | undefined)?.error;
        return { ok: false, error: typeof text === 'string' ? text : `HTTP ${res.status}` };
      } catch (error) {
        return { ok: false, error: `the agent does not answer (${error instanceof Error ? error.message : String(error)})` };
      }
    },
    async jobChoices() {
      try {
        const res = await deps.fetch(new URL('/api/job_choices', base).href);
        return res.ok ? parseJobChoices(parseJson(await res.text())) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The real browser's dependencies. */
export const browserDeps = (): ClientDeps => ({
  fetch: (...args) => fetch(...args),
  openStream: (url) => new EventSource(url) as unknown as EventSourceLike,
  schedule: (fn, ms) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
});
