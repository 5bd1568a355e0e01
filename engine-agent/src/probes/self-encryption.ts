import type { Runner } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';
import type { ParseResult } from './parse-result.js';
import { sgRawSelfEncryption } from './sg-raw-level0.js';
import { parseNvmeSedDiscover, parseSedutilQuery, type SelfEncryption, type TcgState, type TcgTool } from './tcg-discovery.js';

const T = { timeoutMs: 60_000 };

/**
 * Asks the drive's TCG level 0 discovery whether it is self-encrypting and locked: `nvme sed
 * discover -v` for NVMe (nvme-cli 2.x, in the image); for SATA and SAS `sedutil-cli --query` where
 * present, else `sg_raw` (sg3-utils, in the image; sedutil-cli is not packaged in Debian) sending
 * SECURITY PROTOCOL IN itself. Every failure is an answer (`unknown` with the reason), never an
 * error: the drive is still erased by its plan, and a locked one shows up when its reads fail.
 */
export async function probeSelfEncryption(run: Runner, device: string, transport: 'nvme' | 'ata-scsi'): Promise<SelfEncryption> {
  const first = await askTool(run, device, transport);
  if (transport === 'nvme' || !(first.kind === 'unknown' && first.reason === 'no tool')) return first;
  try {
    return await sgRawSelfEncryption(run, device);
  } catch (error) {
    if (error instanceof ToolSpawnError) return first;
    throw error;
  }
}

async function askTool(run: Runner, device: string, transport: 'nvme' | 'ata-scsi'): Promise<SelfEncryption> {
  const [tool, args, parse, label]: [string, string[], (s: string) => ParseResult<TcgState>, TcgTool] =
    transport === 'nvme'
      ? ['nvme', ['sed', 'discover', '-v', device], parseNvmeSedDiscover, 'nvme sed discover']
      : ['sedutil-cli', ['--query', device], parseSedutilQuery, 'sedutil-cli --query'];
  try {
    const r = await run(tool, args, T);
    const p = parse(r.stdout);
    if (p.ok) return { kind: 'tcg', tool: label, ...p.value };
    // nvme-cli says so on stderr when the discovery has no locking feature; sedutil prints no Locking block.
    if (/does not support SED Opal/.test(r.stderr) || (r.exitCode === 0 && transport === 'ata-scsi')) return { kind: 'none', tool: label };
    const said = r.stderr.trim().split('\n')[0];
    return { kind: 'unknown', reason: `${label} gave no answer${said ? `: ${said}` : ''}` };
  } catch (error) {
    if (error instanceof ToolSpawnError) return { kind: 'unknown', reason: 'no tool' };
    throw error;
  }
}
