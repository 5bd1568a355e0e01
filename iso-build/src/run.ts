import { execa, type Options } from 'execa';

/** Runs a build tool with its output on our stderr (a build is long; the operator watches it). */
export async function runTool(command: string, args: readonly string[], options: Options = {}): Promise<void> {
  process.stderr.write(`$ ${command} ${args.map(quoteForLog).join(' ')}\n`);
  await execa(command, args, { stdout: 'inherit', stderr: 'inherit', ...options });
}

function quoteForLog(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
