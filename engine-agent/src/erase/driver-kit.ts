import type { Runner, ToolResult } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';

/** Ports every firmware driver gets. */
export interface DriverDeps {
  readonly run: Runner;
  readonly sleep: (ms: number) => Promise<void>;
  /** Progress in percent, when the drive reports it. */
  readonly onPercent?: (percent: number) => void;
}

/** Why a firmware erase did not complete; each code is an explicit state the kiosk can explain. */
export type DriverFailureCode =
  | 'frozen'
  | 'locked'
  | 'password_set'
  | 'unsupported'
  | 'command_failed'
  | 'erase_failed'
  | 'timeout'
  | 'not_verified'
  | 'tool_missing';

/** Outcome of a driver: the commands issued are evidence either way. */
export type DriverResult =
  | { readonly ok: true; readonly commands: readonly string[]; readonly detail: string }
  | { readonly ok: false; readonly commands: readonly string[]; readonly code: DriverFailureCode; readonly reason: string };

/** Collects the commands a driver issued and runs them through the one runner. */
export class CommandLog {
  readonly commands: string[] = [];
  constructor(private readonly deps: DriverDeps) {}

  /** Runs a tool; a tool that cannot start becomes a `tool_missing` failure value upstream. */
  async run(tool: string, args: readonly string[], timeoutMs: number, redact?: string, shownAs = '<temporary-password>'): Promise<ToolResult> {
    const shown = [tool, ...args].map((a) => (redact && a === redact ? shownAs : a)).join(' ');
    this.commands.push(shown);
    return this.deps.run(tool, args, { timeoutMs });
  }

  ok(detail: string): DriverResult {
    return { ok: true, commands: this.commands, detail };
  }

  fail(code: DriverFailureCode, reason: string): DriverResult {
    return { ok: false, commands: this.commands, code, reason };
  }
}

/** First line of a tool's complaint, for a failure reason. */
export function complaint(r: ToolResult): string {
  const text = `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const status = r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal ?? '?'}`;
  return `${status}${text.length ? `: ${text.slice(-2).join(' / ')}` : ''}`;
}

/** Runs a driver body, turning a missing tool into a failure value instead of an exception. */
export async function guarded(log: CommandLog, body: () => Promise<DriverResult>): Promise<DriverResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolSpawnError) return log.fail('tool_missing', error.message);
    throw error;
  }
}

/** Polls `read` until it reports a terminal state, within a time budget (bounded, flat loop). */
export async function pollUntil<T>(
  deps: DriverDeps,
  read: () => Promise<{ done: true; value: T } | { done: false; percent?: number }>,
  opts: { intervalMs: number; maxPolls: number },
): Promise<{ done: true; value: T } | { done: false }> {
  for (let poll = 0; poll < opts.maxPolls; poll++) {
    const r = await read();
    if (r.done) return r;
    if (r.percent !== undefined) deps.onPercent?.(r.percent);
    await deps.sleep(opts.intervalMs);
  }
  return { done: false };
}
