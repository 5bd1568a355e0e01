import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No import circles in any package's source (the rule ESLint's import/no-cycle would enforce,
 * without a plugin): a circle means neither module can be read, tested or moved without the other.
 * Type-only imports count too, since they tie the modules' designs together all the same.
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_ROOTS = ['shared/src', 'cloud/src', 'cloud/web/src', 'gateway/src', 'engine-agent/src', 'kiosk/src', 'iso-build/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|cts|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports of a file, static and dynamic, resolved to the source files they name. */
export function importsOf(file: string, source: string, known: ReadonlySet<string>): string[] {
  const specifiers = [
    ...[...source.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => m[1]!),
    ...[...source.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier);
    const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base.replace(/\.cjs$/, '.cts'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
    const found = candidates.find((c) => known.has(c));
    return found ? [found] : [];
  });
}

/** The strongly connected components of more than one file (Tarjan), each a circle of imports. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('finds a circle when two modules import each other', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]]))).toEqual([['b', 'a']]);
  });

  it('no package has an import circle', () => {
    const files = SOURCE_ROOTS.map((r) => join(REPO, r)).filter(existsSync).flatMap(sourceFiles);
    const known = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'), known)]));
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph).map((c) => c.map((f) => relative(REPO, f)).sort())).toEqual([]);
  });
});
