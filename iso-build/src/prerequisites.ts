import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** One thing the build needs on the build machine, and the Debian package that provides it. */
export interface Prerequisite {
  readonly kind: 'command' | 'path';
  readonly name: string;
  readonly debianPackage: string;
}

/** Parses iso-build/prerequisites.txt (the one list, also read by install-deps.sh). */
export function parsePrerequisites(text: string): Prerequisite[] {
  return text.split('\n').flatMap((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const [kind, name, debianPackage, ...rest] = line.split(/\s+/);
    if ((kind !== 'command' && kind !== 'path') || !name || !debianPackage || rest.length > 0) {
      throw new Error(`prerequisites.txt line ${i + 1}: expected "command NAME PACKAGE" or "path PATH PACKAGE", got "${line}"`);
    }
    return [{ kind, name, debianPackage }];
  });
}

function onPath(command: string, path: string): boolean {
  return path.split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** The prerequisites this machine lacks: a command on none of PATH's folders, or a path that does not exist. */
export function missingPrerequisites(list: readonly Prerequisite[], env: Readonly<Record<string, string | undefined>>, exists: (path: string) => boolean = existsSync): Prerequisite[] {
  return list.filter((p) => (p.kind === 'command' ? !onPath(p.name, env['PATH'] ?? '') : !exists(p.name)));
}

/** What to tell someone whose machine lacks some of them: what is missing and the one command that installs it. */
export function missingMessage(missing: readonly Prerequisite[]): string {
  const packages = [...new Set(missing.map((p) => p.debianPackage))].sort();
  return [
    'the image build needs tools this machine lacks:',
    ...missing.map((p) => `  ${p.kind === 'command' ? `${p.name} (command)` : p.name} from the Debian package ${p.debianPackage}`),
    `install them with: npm run iso:deps   (or: apt-get install ${packages.join(' ')})`,
    'nothing was built.',
  ].join('\n');
}

export function readPrerequisites(file: string): Prerequisite[] {
  return parsePrerequisites(readFileSync(file, 'utf8'));
}
