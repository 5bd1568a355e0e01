/**
 * Splits `cmd sub --flag value --switch` into positionals and flags. A flag followed by another
 * flag (or nothing), or named in `switches`, is a boolean switch, e.g. `--json`, `--inactive`.
 */
export function parseArgs(
  argv: readonly string[],
  switches: ReadonlySet<string> = new Set(['json', 'inactive']),
): { positionals: string[]; flags: Record<string, string | boolean> } {
  const positionals: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) flags[name] = inline;
    else if (switches.has(name)) flags[name] = true;
    else if (next !== undefined && !next.startsWith('--')) {
      flags[name] = next;
      i++;
    } else flags[name] = true;
  }
  return { positionals, flags };
}
