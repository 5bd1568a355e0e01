import { execa } from 'execa';

/** What a finished tool run produced. A non-zero exit is a value here, never an exception. */
export interface ToolResult {
  /** Exit code, or null when the tool was killed (timeout, signal, output over the buffer cap). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Signal name when the tool was killed, e.g. `SIGTERM` after a timeout. */
  readonly signal?: string;
  readonly timedOut: boolean;
  /** True when output passed the buffer cap and the tool was stopped: the text is incomplete. */
  readonly outputTruncated: boolean;
  readonly durationMs: number;
}

/** Options of one run. `timeoutMs` is required: every hardware tool can hang on a bad drive. */
export interface RunOptions {
  readonly timeoutMs: number;
  /** Text written to the tool's stdin (e.g. a confirmation answer). */
  readonly input?: string;
}

/** The one port through which the agent starts external tools (STYLE B, ARCHITECTURE 7). */
export type Runner = (tool: string, args: readonly string[], options: RunOptions) => Promise<ToolResult>;

/** The tool could not be started at all (not installed, not executable, bad cwd). */
export class ToolSpawnError extends Error {
  readonly code = 'tool_spawn_failed' as const;
  constructor(
    readonly tool: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`could not start ${tool}: ${reason}`, options);
    this.name = 'ToolSpawnError';
  }
}

/** Settings of a runner instance. */
export interface RunnerConfig {
  /** Cap per output stream. smartctl -x and dmidecode stay well below 1 MiB; 16 MiB leaves room for lsblk on big JBODs. */
  readonly maxBufferBytes?: number;
  /** Extra variables; the parent environment (PATH included) is always passed through so fake binaries work in tests. */
  readonly env?: Readonly<Record<string, string>>;
}

const DEFAULT_MAX_BUFFER = 16 * 1024 * 1024;

/**
 * The environment every tool runs with: the parent's (PATH included) plus `config.env`. Tools print
 * English with plain digits only under the C locale, and the parsers depend on that (smartctl
 * under another locale prints "7 681 501 126 656 bytes"). The caller may still override it.
 */
const toolEnv = (config: RunnerConfig) => ({ extendEnv: true, env: { LC_ALL: 'C', ...config.env } });

/** Builds the execa-backed runner. */
export function createRunner(config: RunnerConfig = {}): Runner {
  const maxBuffer = config.maxBufferBytes ?? DEFAULT_MAX_BUFFER;
  return async (tool, args, options) => {
    const started = performance.now();
    const result = await execa(tool, [...args], {
      reject: false,
      timeout: options.timeoutMs,
      maxBuffer,
      ...toolEnv(config),
      ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
      stripFinalNewline: false,
      encoding: 'utf8',
    });
    const durationMs = Math.round(performance.now() - started);
    const killed = result.timedOut || result.isMaxBuffer || result.isTerminated;
    if (typeof result.exitCode !== 'number' && !killed) {
      // No exit code and not killed by us: the process never ran (ENOENT, EACCES, ...).
      throw new ToolSpawnError(tool, result.code ?? result.shortMessage ?? 'unknown error', { cause: result.cause });
    }
    return {
      exitCode: typeof result.exitCode === 'number' && !killed ? result.exitCode : null,
      stdout: String(result.stdout ?? ''),
      stderr: String(result.stderr ?? ''),
      ...(result.signal ? { signal: result.signal } : {}),
      timedOut: result.timedOut,
      outputTruncated: result.isMaxBuffer,
      durationMs,
    };
  };
}

/** How a streamed tool ended. */
export interface StreamEnd {
  /** Exit code, or null when it was killed or never started. */
  readonly exitCode: number | null;
  readonly signal?: string;
  /** The last 2,000 characters it printed on stderr (what explains why it died). */
  readonly stderrTail: string;
  /** Set when the tool could not be started at all (not installed, not executable). */
  readonly spawnError?: string;
}

/** A long-running tool whose stdout is read as it comes (`udevadm monitor`). */
export interface ToolStream {
  /** Settles when the tool ends, on `stop` or on its own; never rejects. */
  readonly ended: Promise<StreamEnd>;
  /** Ends the tool (SIGTERM) and waits for it. */
  stop(): Promise<StreamEnd>;
}

/**
 * Starts tools that run until stopped, streaming their stdout: the runner's other half, with the
 * same environment. No timeout (the caller stops it) and nothing buffered (stdout goes to
 * `onStdout` chunk by chunk; only a stderr tail is kept).
 */
export type ToolStarter = (tool: string, args: readonly string[], options: { readonly onStdout: (chunk: string) => void }) => ToolStream;

/** Builds the execa-backed starter of streamed tools. */
export function createToolStarter(config: RunnerConfig = {}): ToolStarter {
  return (tool, args, options) => {
    const child = execa(tool, [...args], { reject: false, buffer: false, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', ...toolEnv(config) });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => options.onStdout(chunk));
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-2000);
    });
    const ended: Promise<StreamEnd> = child.then((r) => {
      const killed = r.isTerminated || r.isCanceled;
      const spawnFailed = typeof r.exitCode !== 'number' && !killed;
      return {
        exitCode: typeof r.exitCode === 'number' ? r.exitCode : null,
        ...(r.signal ? { signal: r.signal } : {}),
        stderrTail,
        ...(spawnFailed ? { spawnError: r.code ?? r.shortMessage ?? 'unknown error' } : {}),
      };
    });
    return {
      ended,
      stop: async () => {
        child.kill('SIGTERM');
        return ended;
      },
    };
  };
}
