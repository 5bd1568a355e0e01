import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The guides cannot drift from the code: every relative link in README.md and docs/ resolves,
 * and every command-line flag and environment variable they name exists somewhere in the code.
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Flags of tools the project runs but does not own, which the guides show how to call. */
const OTHER_TOOLS_FLAGS = new Set(['project']);

const docs = [join(REPO, 'README.md'), ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(REPO, 'docs', f))];

/** Everything tracked that is not prose: the code, scripts, units and configuration the docs describe. */
function codeCorpus(): string {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !f.endsWith('.md') && !f.endsWith('.png') && f !== 'package-lock.json' && existsSync(join(REPO, f)));
  return files.map((f) => readFileSync(join(REPO, f), 'latin1')).join('\n');
}

/** The text inside `inline code` and indented or fenced code blocks: where docs name flags and variables. */
export function codeSpans(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const blocks = markdown.split('\n').filter((line) => /^( {4}|\t)/.test(line));
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return [...spans, ...blocks, ...fenced];
}

export function flagsIn(code: string): string[] {
  return [...code.matchAll(/(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g)].map((m) => m[1]!);
}

export function variablesIn(code: string): string[] {
  return [...code.matchAll(/(?<![\w.-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w-])/g)].map((m) => m[1]!);
}

/** Relative link targets, without their #fragment. Absolute URLs and pure fragments are not files. */
export function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}

describe('the guides', () => {
  it('README.md and docs/ exist, and the README is a front door, not the manual', () => {
    expect(docs.length).toBeGreaterThan(1);
    expect(readFileSync(join(REPO, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(160);
  });

  it('finds flags, variables and links in the forms the guides use', () => {
    expect(flagsIn('npx erasure-agent run --device /dev/sdX --yes')).toEqual(['device', 'yes']);
    expect(variablesIn('DATA_DIR=/x PUBLIC_BASE_URL')).toEqual(['DATA_DIR', 'PUBLIC_BASE_URL']);
    expect(relativeLinks('[a](docs/x.md#y) [b](https://e.org) [c](#top)')).toEqual(['docs/x.md']);
  });

  it.each(docs.map((d) => [relative(REPO, d), d]))('every relative link in %s resolves', (_name, doc) => {
    const broken = relativeLinks(readFileSync(doc, 'utf8')).filter((target) => !existsSync(resolve(dirname(doc), decodeURI(target))));
    expect(broken).toEqual([]);
  });

  describe('what the guides name exists in the code', () => {
    const corpus = codeCorpus();
    it.each(docs.map((d) => [relative(REPO, d), d]))('every flag and environment variable in %s', (_name, doc) => {
      const code = codeSpans(readFileSync(doc, 'utf8')).join('\n');
      const flags = [...new Set(flagsIn(code))].filter((f) => !OTHER_TOOLS_FLAGS.has(f) && !corpus.includes(`--${f}`) && !corpus.includes(`'${f}'`));
      const variables = [...new Set(variablesIn(code))].filter((v) => !corpus.includes(v));
      expect({ flags, variables }).toEqual({ flags: [], variables: [] });
    });
  });
});
