import type { Readable, Writable } from 'node:stream';

/** A DevTools protocol event: browser-level, or from the page session it names. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}

/** The DevTools protocol as the watchdog uses it: commands with a deadline, and events. */
export interface Cdp {
  send(method: string, params?: Record<string, unknown>, opts?: { sessionId?: string; timeoutMs?: number }): Promise<Record<string, unknown>>;
  onEvent(listener: (e: CdpEvent) => void): void;
  /** Rejects every pending command (Chromium is gone). */
  close(reason: string): void;
}

/**
 * The DevTools protocol over Chromium's `--remote-debugging-pipe`: commands go to its fd 3,
 * answers and events come from its fd 4, each message a JSON text ended by a NUL byte. A pipe
 * rather than `--remote-debugging-port`: no port that every local process could use to drive a
 * browser whose page can erase drives.
 */
export function cdpOverPipe(toChromium: Writable, fromChromium: Readable): Cdp {
  let nextId = 1;
  let closed: string | undefined;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  const listeners: Array<(e: CdpEvent) => void> = [];
  let buffer = '';
  fromChromium.setEncoding('utf8');
  fromChromium.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      let msg: { id?: number; result?: Record<string, unknown>; error?: { message?: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
      try {
        msg = JSON.parse(text) as typeof msg;
      } catch {
        continue; // a message that is not JSON is Chromium's bug, not a reason to stop watching
      }
      if (typeof msg.id === 'number') {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message ?? 'DevTools error'));
        else p?.resolve(msg.result ?? {});
      } else if (typeof msg.method === 'string') {
        const event: CdpEvent = { method: msg.method, params: msg.params ?? {}, ...(msg.sessionId ? { sessionId: msg.sessionId } : {}) };
        for (const l of listeners) l(event);
      }
    }
  });
  const close = (reason: string) => {
    closed ??= reason;
    for (const p of pending.values()) p.reject(new Error(reason));
    pending.clear();
  };
  fromChromium.on('close', () => close('Chromium closed its DevTools pipe'));
  // Chromium gone: writes fail with EPIPE; the pending commands are rejected by close().
  toChromium.on('error', () => close('Chromium closed its DevTools pipe'));
  return {
    send(method, params = {}, opts = {}) {
      if (closed) return Promise.reject(new Error(closed));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = opts.timeoutMs ? setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method} did not answer within ${Math.round((opts.timeoutMs ?? 0) / 1000)} s`));
        }, opts.timeoutMs) : undefined;
        pending.set(id, {
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        toChromium.write(`${JSON.stringify({ id, method, params, ...(opts.sessionId ? { sessionId: opts.sessionId } : {}) })}\0`);
      });
    },
    onEvent(listener) {
      listeners.push(listener);
    },
    close,
  };
}
