import { IMAGE_FILES, LIVE_MEDIUM_DIR } from '@erasure/shared';
import type { Runner } from './runner.js';

/*
 * Issue 29 item 6: the wipe result's `tool_components` names the boot image, the agent, and the
 * exact versions of the tools that erase (hdparm, nvme-cli, sg3_utils) and of the kernel they run
 * on, read once when the agent starts. A tool that cannot be run, or whose answer does not say its
 * version, is named as missing or unreadable: the record never names a version nobody read.
 */

/** Reads a text file; undefined when it is not there (the agent's SystemView.readText). */
export type ReadText = (path: string) => Promise<string | undefined>;

const T = { timeoutMs: 15_000 };

/** Runs a version command; its whole output (stdout then stderr), or undefined when it could not run or failed. */
async function versionOutput(run: Runner, tool: string, args: readonly string[]): Promise<string | undefined> {
  try {
    const r = await run(tool, args, T);
    return r.exitCode === 0 ? `${r.stdout}\n${r.stderr}` : undefined;
  } catch {
    return undefined; // not installed or not executable: named as missing below
  }
}

/** One component: its version as read, or why there is none. */
async function component(name: string, output: Promise<string | undefined>, parse: (text: string) => string | undefined): Promise<string> {
  const text = await output;
  if (text === undefined) return `${name}: missing`;
  return parse(text) ?? `${name}: version not readable`;
}

/** `hdparm -V` prints `hdparm v9.65` (hdparm.c: `"%s %s\n", progname, HDPARM_VERSION`). */
export const parseHdparmVersion = (text: string) => /\bhdparm\s+(v?\d+(?:\.\d+)+\S*)/.exec(text)?.[1];

/** `nvme version` prints `nvme version 2.4 (git 2.4)` and, from 2.0, `libnvme version 1.3 (git 1.3)`. */
export function parseNvmeVersion(text: string): string | undefined {
  const cli = /\bnvme version (\S+)/.exec(text)?.[1];
  if (!cli) return undefined;
  const lib = /\blibnvme version (\S+)/.exec(text)?.[1];
  return lib ? `${cli} (libnvme ${lib})` : cli;
}

/** `sg_sanitize -V` prints `sg_sanitize: version: 1.19 20220608` on stderr (each sg3_utils tool has its own version). */
export const parseSgSanitizeVersion = (text: string) => /sg_sanitize: version: ([^\n]+)/.exec(text)?.[1]?.trim();

/**
 * mmc-utils has no version option of its own (issue 30 item 4): the image's Debian package
 * says it, e.g. `0+git20250204.a1b2c3d4-1` from `dpkg-query -W -f '${Version}' mmc-utils`.
 */
export const parseDpkgVersion = (text: string) => /^\s*(\d[\w.+~:-]*)\s*$/.exec(text.split('\n')[0] ?? '')?.[1];

/** The image build's `erasure/image.json` on the boot medium: `{version, built_at, …}`. */
function imageVersion(json: string | undefined): string {
  if (json === undefined) return 'image: not found (no build info on the boot medium)';
  try {
    const info = JSON.parse(json) as { version?: unknown; built_at?: unknown };
    if (typeof info.version !== 'string') return 'image: version not readable';
    const built = typeof info.built_at === 'string' ? ` (built ${info.built_at.slice(0, 10)})` : '';
    return `image erasure ${info.version}${built}`;
  } catch {
    return 'image: version not readable';
  }
}

/**
 * `erasure-agent 1.4.2; image erasure 1.4.2 (built 2026-11-20); hdparm v9.65; nvme-cli 2.4
 * (libnvme 1.3); sg3_utils (sg_sanitize 1.19 20220608); mmc-utils 0+git20250204.a1b2c3d4-1; kernel 6.1.0-27-amd64`. The tools are
 * asked through the one runner; `mediumDir` is where live-boot mounted the medium.
 */
export async function readToolComponents(deps: { run: Runner; readText: ReadText; agentVersion: string; mediumDir?: string }): Promise<string> {
  const { run } = deps;
  const parts = await Promise.all([
    imageVersion(await deps.readText(`${deps.mediumDir ?? LIVE_MEDIUM_DIR}/${IMAGE_FILES.buildInfo}`)),
    component('hdparm', versionOutput(run, 'hdparm', ['-V']), (t) => {
      const v = parseHdparmVersion(t);
      return v && `hdparm ${v}`;
    }),
    component('nvme-cli', versionOutput(run, 'nvme', ['version']), (t) => {
      const v = parseNvmeVersion(t);
      return v && `nvme-cli ${v}`;
    }),
    component('sg3_utils', versionOutput(run, 'sg_sanitize', ['-V']), (t) => {
      const v = parseSgSanitizeVersion(t);
      return v && `sg3_utils (sg_sanitize ${v})`;
    }),
    component('mmc-utils', versionOutput(run, 'dpkg-query', ['-W', '-f', '${Version}', 'mmc-utils']), (t) => {
      const v = parseDpkgVersion(t);
      return v && `mmc-utils ${v}`;
    }),
    component('kernel', versionOutput(run, 'uname', ['-r']), (t) => {
      const v = t.trim().split(/\s+/)[0];
      return v ? `kernel ${v}` : undefined;
    }),
  ]);
  return [`erasure-agent ${deps.agentVersion}`, ...parts].join('; ');
}
