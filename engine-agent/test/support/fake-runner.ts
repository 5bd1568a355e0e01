import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createRunner, type Runner } from '../../src/adapters/runner.js';
import { fixtureRoot, workspaceDir } from './fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'fake-runner-'));

/** A scenario rule of test/fake-bin/fake-tool.mjs. */
export interface FakeRule {
  readonly match: string;
  readonly fixture?: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exit?: number;
  readonly times?: number;
  /** The rule answers only until this file exists (a drive state that another rule ends). */
  readonly untilFile?: string;
  /** Creates this file when the rule answers: the drive's state changed. */
  readonly touch?: string;
  /** The fake drive really erases: the first `bytes` of `device` become zeros or random bytes. */
  readonly erase?: { readonly device: string; readonly bytes: number; readonly fill: 'zero' | 'random' };
}

/** The fake binaries less `without`: an image that does not carry those tools (links, so each fake still finds fake-tool.mjs). */
function fakeBinWithout(without: readonly string[]): string {
  const all = join(workspaceDir, 'test', 'fake-bin');
  if (without.length === 0) return all;
  const dir = join(work, `bin-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  for (const name of readdirSync(all)) if (!without.includes(name)) symlinkSync(join(all, name), join(dir, name));
  return dir;
}

/**
 * A runner whose PATH starts with the fake binaries, replaying `scenario`, and its call log.
 * `without` leaves fakes out (the host's PATH carries none of these tools).
 */
export function fakeRunner(scenario: Record<string, FakeRule[]>, options: { without?: readonly string[] } = {}): { run: Runner; calls: () => string[][] } {
  const file = join(work, `scenario-${Math.random().toString(36).slice(2)}.json`);
  const log = `${file}.calls`;
  writeFileSync(file, JSON.stringify(scenario));
  const run = createRunner({
    env: {
      PATH: [fakeBinWithout(options.without ?? []), process.env.PATH ?? ''].join(delimiter),
      FAKE_FIXTURE_DIR: fixtureRoot,
      FAKE_SCENARIO_FILE: file,
      FAKE_CALL_LOG: log,
    },
  });
  const calls = () => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);
    } catch {
      return [];
    }
  };
  return { run, calls };
}

/** Sleep that does not wait: drivers poll with it in tests. */
export const noSleep = async (): Promise<void> => undefined;
