/**
 * One convention for every binary of the product: `--help` (or `-h`) and `help [command]`
 * print usage and exit 0 without doing anything else; an unknown command prints usage on stderr
 * and exits 2. Each binary describes its commands; this decides what a command line asks for.
 */
export interface CommandHelp {
  /** The command as typed, e.g. `serve`. */
  readonly name: string;
  /** Its arguments and options, e.g. `[--lease-seconds N]`. */
  readonly args?: string;
  /** What it does, in one or a few plain lines. */
  readonly summary: string;
}

export interface ProgramHelp {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly CommandHelp[];
  /** The command run when none is given (`serve` for the servers); without one, no command is a usage error. */
  readonly defaultCommand?: string;
  /** Lines after the command list: options every command takes, environment variables. */
  readonly notes?: readonly string[];
}

/** What to print, where, and the exit code, when the command line asks for help or is wrong; undefined to run it. */
export interface HelpAnswer {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
  readonly exitCode: 0 | 2;
}

const line = (c: CommandHelp) => (c.args ? `${c.name} ${c.args}` : c.name);

export function programUsage(program: ProgramHelp): string {
  const width = Math.min(30, Math.max(...program.commands.map((c) => line(c).length)) + 2);
  const rows = program.commands.map((c) => {
    const [first = '', ...rest] = c.summary.split('\n');
    const head = line(c);
    const lead = head.length + 2 > width ? `  ${head}\n  ${' '.repeat(width)}${first}` : `  ${head.padEnd(width)}${first}`;
    return [lead, ...rest.map((r) => `  ${' '.repeat(width)}${r}`)].join('\n');
  });
  return [
    `usage: ${program.name} <command> [options]`,
    '',
    program.summary,
    '',
    'commands:',
    ...rows,
    ...(program.notes && program.notes.length > 0 ? ['', ...program.notes] : []),
    '',
    `${program.name} help <command> describes one command.`,
  ].join('\n');
}

export function commandUsage(program: ProgramHelp, command: CommandHelp): string {
  return [`usage: ${program.name} ${line(command)}`, '', command.summary, ...(program.notes && program.notes.length > 0 ? ['', ...program.notes] : [])].join('\n');
}

export function helpAnswer(program: ProgramHelp, argv: readonly string[]): HelpAnswer | undefined {
  const find = (name: string | undefined) => program.commands.find((c) => c.name === name);
  const positionals = argv.filter((a) => !a.startsWith('-'));
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const first = positionals[0];
  if (first === 'help' || (wantsHelp && first === undefined)) {
    const topic = first === 'help' ? positionals[1] : undefined;
    if (topic === undefined) return { stream: 'stdout', text: programUsage(program), exitCode: 0 };
    const command = find(topic);
    if (command) return { stream: 'stdout', text: commandUsage(program, command), exitCode: 0 };
    return { stream: 'stderr', text: `${program.name}: unknown command ${topic}\n\n${programUsage(program)}`, exitCode: 2 };
  }
  const command = find(first ?? program.defaultCommand);
  if (!command) {
    const what = first === undefined ? 'no command given' : `unknown command ${first}`;
    return { stream: 'stderr', text: `${program.name}: ${what}\n\n${programUsage(program)}`, exitCode: 2 };
  }
  if (wantsHelp) return { stream: 'stdout', text: commandUsage(program, command), exitCode: 0 };
  return undefined;
}
