import { describe, expect, it } from 'vitest';
import { createRunner, createToolStarter, ToolSpawnError } from './runner.js';

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

describe('createToolStarter', () => {
  it('streams stdout chunk by chunk while the tool runs, with the runner\'s environment, until stopped', async () => {
    const chunks: string[] = [];
    const sut = createToolStarter({ env: { EXTRA_VAR: 'x' } })(node, ['-e', 'process.stdout.write(`${process.env.EXTRA_VAR},${process.env.LC_ALL}\\n`); setInterval(() => {}, 1 << 30)'], { onStdout: (c) => chunks.push(c) });
    const end = Date.now() + 10_000;
    while (chunks.join('') === '' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    // Still running: the line arrived before the tool ended.
    expect(chunks.join('')).toBe('x,C\n');
    await expect(sut.stop()).resolves.toMatchObject({ exitCode: null, signal: 'SIGTERM' });
  });

  it('ends on its own with its exit code and the tail of its stderr', async () => {
    const sut = createToolStarter()(node, ['-e', 'process.stderr.write("no such subsystem"); process.exit(4)'], { onStdout: () => undefined });
    await expect(sut.ended).resolves.toEqual({ exitCode: 4, stderrTail: 'no such subsystem' });
  });

  it('says why a tool that cannot start never ran', async () => {
    const sut = createToolStarter()('/nonexistent/tool-xyz', [], { onStdout: () => undefined });
    await expect(sut.ended).resolves.toMatchObject({ exitCode: null, spawnError: 'ENOENT' });
  });
});
