import { describe, expect, it } from 'vitest';
import { helpAnswer, type ProgramHelp } from './cli-help.js';

const program: ProgramHelp = {
  name: 'erasure-thing',
  summary: 'Does things.',
  defaultCommand: 'serve',
  commands: [
    { name: 'serve', summary: 'listens' },
    { name: 'worker', args: '[--lease-seconds N]', summary: 'works\nin the background' },
  ],
};

describe('command-line help', () => {
  it('--help prints the whole usage on stdout and exits 0', () => {
    const answer = helpAnswer(program, ['--help']);
    expect(answer).toMatchObject({ stream: 'stdout', exitCode: 0 });
    expect(answer?.text).toContain('usage: erasure-thing <command>');
    expect(answer?.text).toContain('worker [--lease-seconds N]');
  });

  it('help <command> and <command> --help describe that command', () => {
    expect(helpAnswer(program, ['help', 'worker'])?.text).toMatch(/^usage: erasure-thing worker \[--lease-seconds N\]\n\nworks\nin the background/);
    expect(helpAnswer(program, ['worker', '--help'])).toEqual(helpAnswer(program, ['help', 'worker']));
    expect(helpAnswer(program, ['-h'])?.exitCode).toBe(0);
  });

  it('an unknown command, or help about one, exits 2 with usage on stderr', () => {
    expect(helpAnswer(program, ['bogus'])).toMatchObject({ stream: 'stderr', exitCode: 2, text: expect.stringContaining('unknown command bogus') });
    expect(helpAnswer(program, ['help', 'bogus'])).toMatchObject({ stream: 'stderr', exitCode: 2 });
  });

  it('a known command, or none where there is a default, runs', () => {
    expect(helpAnswer(program, ['worker', '--lease-seconds', '5'])).toBeUndefined();
    expect(helpAnswer(program, [])).toBeUndefined();
  });

  it('no command where there is no default is a usage error', () => {
    const { defaultCommand: _, ...noDefault } = program;
    expect(helpAnswer(noDefault, [])).toMatchObject({ exitCode: 2, text: expect.stringContaining('no command given') });
  });
});
