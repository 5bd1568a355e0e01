import type { AgentIntent, KioskAgentState } from '../contract.js';
import type { AgentApi, IntentResult, StreamHandlers } from '../api-client.js';

/** A valid AgentState with everything empty and the boot unlocked; tests override what they need. */
export function agentState(over: Partial<KioskAgentState> = {}): KioskAgentState {
  return {
    record_id: 'CW-20261122-120000',
    locked: false,
    boot: { phase: 'unlocked', account: 'Acme Refurb' },
    drives: [],
    selected: [],
    confirmation: { phrase: null, confirmed: false },
    run: { status: 'idle' },
    progress: {},
    results: [],
    tests: {},
    notes: '',
    reports: { tests: 'idle', notes: 'idle' },
    can: { refresh: true, select: true, confirm: false, start: false, set_test_result: true, set_notes: true, retry: false },
    ...over,
  };
}

/** An in-memory agent: records intents, answers them with `answer`, and lets the test push stream events. */
export function fakeAgent(answer: (i: AgentIntent) => IntentResult = () => ({ ok: true })) {
  const sent: AgentIntent[] = [];
  let handlers: StreamHandlers | undefined;
  const api: AgentApi = {
    subscribe: (h) => {
      handlers = h;
      return () => (handlers = undefined);
    },
    send: async (i) => {
      sent.push(i);
      return answer(i);
    },
  };
  return {
    api,
    sent,
    push: (s: KioskAgentState) => handlers?.onState(s),
    handlers: () => handlers,
  };
}

/** A manual clock for debounces: `run()` fires what is due. */
export function manualTimers() {
  let queue: Array<{ fn: () => void; cancelled: boolean }> = [];
  return {
    schedule: (fn: () => void) => {
      const t = { fn, cancelled: false };
      queue.push(t);
      return () => void (t.cancelled = true);
    },
    run: () => {
      const due = queue;
      queue = [];
      for (const t of due) if (!t.cancelled) t.fn();
    },
    pending: () => queue.filter((t) => !t.cancelled).length,
  };
}
