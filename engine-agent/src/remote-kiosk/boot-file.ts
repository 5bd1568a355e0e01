import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BootOptions } from '../image/boot-options.js';
import { generatePairingCode, MIN_PAIRING_CODE_LENGTH, normalizePairingCode } from './pairing-code.js';

/** What the remote kiosk's unit starts with: where to listen and the code to ask for. */
export interface RemoteKioskBoot {
  readonly listen: string;
  readonly code: string;
  readonly codeSource: 'made at boot' | 'kernel command line';
}

/** This boot's remote kiosk: none (the default), one to start, or refused with the reason. */
export type RemoteKioskDecision = { readonly kind: 'off' } | ({ readonly kind: 'on' } & RemoteKioskBoot) | { readonly kind: 'refused'; readonly reason: string };

/** The file under runDir whose presence starts the proxy unit (ConditionPathExists). */
export const REMOTE_KIOSK_FILE = 'remote-kiosk';

/**
 * Decides the remote kiosk from the boot options. A code given on the command line that is too
 * short to resist guessing starts nothing (fail closed) rather than a weakly guarded erase API.
 */
export function decideRemoteKiosk(options: Pick<BootOptions, 'agentListen' | 'agentSecret'>, generate: () => string = generatePairingCode): RemoteKioskDecision {
  if (options.agentListen === undefined) return { kind: 'off' };
  if (options.agentSecret === undefined) return { kind: 'on', listen: options.agentListen, code: generate(), codeSource: 'made at boot' };
  if (normalizePairingCode(options.agentSecret).length < MIN_PAIRING_CODE_LENGTH) return { kind: 'refused', reason: `erasure.agent_secret is shorter than ${MIN_PAIRING_CODE_LENGTH} characters` };
  return { kind: 'on', listen: options.agentListen, code: options.agentSecret, codeSource: 'kernel command line' };
}

/** Writes the unit's file (root only: it holds the code), or removes it when there is no remote kiosk. */
export function writeRemoteKioskFile(runDir: string, decision: RemoteKioskDecision): void {
  const file = join(runDir, REMOTE_KIOSK_FILE);
  if (decision.kind !== 'on') return rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify({ listen: decision.listen, code: decision.code })}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Reads the unit's file; undefined when absent or not what the boot step writes (the proxy then does not start). */
export function readRemoteKioskFile(runDir: string): { listen: string; code: string } | undefined {
  const file = join(runDir, REMOTE_KIOSK_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { listen?: unknown; code?: unknown };
    if (typeof doc.listen !== 'string' || typeof doc.code !== 'string' || normalizePairingCode(doc.code).length < MIN_PAIRING_CODE_LENGTH) return undefined;
    return { listen: doc.listen, code: doc.code };
  } catch {
    return undefined;
  }
}

/** The console line that tells the person at the machine the code (or why there is no remote kiosk). */
export function describeRemoteKiosk(decision: RemoteKioskDecision): string | undefined {
  if (decision.kind === 'off') return undefined;
  if (decision.kind === 'refused') return `remote kiosk not started: ${decision.reason}`;
  const where = decision.listen === 'any' ? 'every interface' : decision.listen;
  const code = decision.codeSource === 'made at boot' ? `remote kiosk pairing code: ${decision.code}` : 'remote kiosk pairing code: the one given with erasure.agent_secret';
  return `remote kiosk on port 7071 of ${where} (http://<this machine>:7071/pair); ${code}`;
}
