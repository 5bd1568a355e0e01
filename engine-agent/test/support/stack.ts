import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './fixtures.js';

/** A started service. */
export interface Service {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Builds what the e2e test runs (dist of gateway and the agent) when it is missing or stale. */
export function buildForE2e(): void {
  if (!existsSync(join(repoRoot, 'gateway/dist/main.js'))) execFileSync('npx', ['tsc', '-b', 'gateway'], { cwd: repoRoot, stdio: 'inherit' });
  execFileSync('npx', ['tsc', '-b', 'engine-agent'], { cwd: repoRoot, stdio: 'inherit' });
}

/** Runs a cloud CLI command with `--json` and parses its output. */
export function cloudCli(env: NodeJS.ProcessEnv, args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [join(repoRoot, 'cloud/bin/erasure-cloud.js'), ...args, '--json'], { env, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, unknown>;
}

/** Starts `<bin> serve` and resolves with the URL it prints ("listening on http://…"). */
export function startService(bin: string, env: NodeJS.ProcessEnv): Promise<Service> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, bin), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${bin} did not start: ${seen}`)), 15_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${bin} exited ${code}: ${seen}`)));
  });
}

/** Stops a service it started, by its own pid. */
export function stopService(s: Service | undefined): void {
  if (s?.child.pid && s.child.exitCode === null) s.child.kill('SIGTERM');
}
