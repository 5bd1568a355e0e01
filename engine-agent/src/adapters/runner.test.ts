import { describe, expect, it } from 'vitest';
import { createRunner, ToolSpawnError } from './runner.js';

const sut = createRunner();
const node = process.execPath;

describe('createRunner', () => {
  it('returns stdout, stderr and a non-zero exit code as a value', async () => {
    const r = await sut(node, ['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'], {
      timeoutMs: 10_000,
    });
    expect(r).toMatchObject({ exitCode: 3, stdout: 'out', stderr: 'err', timedOut: false, outputTruncated: false });
  });

  it('feeds input to stdin', async () => {
    const r = await sut(node, ['-e', 'process.stdin.pipe(process.stdout)'], { timeoutMs: 10_000, input: 'yes\n' });
    expect(r.stdout).toBe('yes\n');
    expect(r.exitCode).toBe(0);
  });

  it('passes the parent environment through and forces the C locale', async () => {
    const r = await createRunner({ env: { EXTRA_VAR: 'x' } })(
      node,
      ['-e', 'process.stdout.write([process.env.PATH ? "path" : "nopath", process.env.EXTRA_VAR, process.env.LC_ALL].join(","))'],
      { timeoutMs: 10_000 },
    );
    expect(r.stdout).toBe('path,x,C');
  });

  it('reports a timeout as a killed run without an exit code', async () => {
    const r = await sut(node, ['-e', 'setTimeout(() => {}, 60_000)'], { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
  });

  it('marks output over the buffer cap as truncated', async () => {
    const r = await createRunner({ maxBufferBytes: 1024 })(node, ['-e', 'process.stdout.write("x".repeat(100000))'], {
      timeoutMs: 10_000,
    });
    expect(r.outputTruncated).toBe(true);
    expect(r.exitCode).toBeNull();
  });

  it('throws a ToolSpawnError when the tool does not exist', async () => {
    const error = await sut('/nonexistent/tool-xyz', [], { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolSpawnError);
    expect((error as ToolSpawnError).code).toBe('tool_spawn_failed');
    expect((error as ToolSpawnError).reason).toBe('ENOENT');
  });
});
