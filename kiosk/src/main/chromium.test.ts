import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ChromiumMissingError, chromiumArgs, launchChromium, type ChromiumDeps } from './chromium.js';

const url = new URL('http://127.0.0.1:7070/');

/** A recording fake of the system: which binaries exist, and what was spawned. */
function fakeSystem(existing: string[], isRoot = false) {
  const spawned: Array<{ command: string; args: readonly string[] }> = [];
  const deps: ChromiumDeps = {
    isExecutable: (p) => existing.includes(p),
    spawn: (command, args) => {
      spawned.push({ command, args });
      return { pid: 4242 } as unknown as ChildProcess;
    },
    makeProfileDir: () => '/tmp/fresh-profile',
    isRoot,
  };
  return { deps, spawned };
}

describe('the Chromium fallback', () => {
  it('opens the agent URL as a full-screen kiosk app in a fresh profile', () => {
    const { deps, spawned } = fakeSystem(['/usr/bin/chromium']);
    launchChromium({ agentUrl: url, windowed: false, chromiumPath: '/usr/bin/chromium', profileDir: undefined }, deps);
    expect(spawned).toHaveLength(1);
    const [{ command, args }] = spawned as [{ command: string; args: readonly string[] }];
    expect(command).toBe('/usr/bin/chromium');
    expect(args).toEqual(expect.arrayContaining(['--kiosk', '--app=http://127.0.0.1:7070/', '--user-data-dir=/tmp/fresh-profile', '--no-first-run']));
    expect(args).not.toContain('--no-sandbox');
  });

  it('uses a normal window with --windowed and never kiosk mode', () => {
    const sut = chromiumArgs(url.href, '/p', { windowed: true, isRoot: false });
    expect(sut).not.toContain('--kiosk');
    expect(sut).toContain('--app=http://127.0.0.1:7070/');
  });

  it('turns Chromium’s own sandbox off only when running as root, where it would not start', () => {
    expect(chromiumArgs(url.href, '/p', { windowed: false, isRoot: true })).toContain('--no-sandbox');
    expect(chromiumArgs(url.href, '/p', { windowed: false, isRoot: false })).not.toContain('--no-sandbox');
  });

  it('keeps a given profile directory instead of making one', () => {
    const { deps, spawned } = fakeSystem(['/opt/chromium']);
    launchChromium({ agentUrl: url, windowed: false, chromiumPath: '/opt/chromium', profileDir: '/var/kiosk' }, deps);
    expect(spawned[0]?.args).toContain('--user-data-dir=/var/kiosk');
  });

  it('throws a ChromiumMissingError naming the path and the URL when no binary exists, and spawns nothing', () => {
    const { deps, spawned } = fakeSystem([]);
    const run = () => launchChromium({ agentUrl: url, windowed: false, chromiumPath: '/usr/bin/chromium', profileDir: undefined }, deps);
    expect(run).toThrow(ChromiumMissingError);
    expect(run).toThrow(/\/usr\/bin\/chromium.*http:\/\/127\.0\.0\.1:7070\//);
    expect(spawned).toEqual([]);
  });
});
