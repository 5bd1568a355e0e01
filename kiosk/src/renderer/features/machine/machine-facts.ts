import type { Fingerprint } from '../../contract.js';
import { formatBytes, formatMemory } from '../../format.js';

/** One labelled line of the machine summary. */
export type Fact = readonly [label: string, value: string];

type Rec = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined);
const list = (v: unknown): Rec[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Rec[]) : []);
const join = (...parts: unknown[]) => parts.map(str).filter(Boolean).join(' ');

/**
 * The machine summary from the agent's fingerprint: identity first (what goes on the asset label),
 * then the parts a buyer asks about. Missing sections are left out rather than shown as blanks.
 */
export function machineFacts(fp: Fingerprint): Fact[] {
  const f = fp as Rec;
  const sys = (f.system ?? {}) as Rec;
  const out: Array<[string, string | undefined]> = [
    ['Model', join(sys.manufacturer ?? sys.vendor, sys.product ?? sys.model)],
    ['Serial number', str(sys.serial)],
    ['System UUID', str(sys.uuid)],
    ['Processor', fp.cpu ? `${fp.cpu.model ?? 'unknown'}${fp.cpu.cores ? ` · ${fp.cpu.cores} cores` : ''}${fp.cpu.threads ? ` / ${fp.cpu.threads} threads` : ''}` : undefined],
    ['Memory', fp.memory?.total_bytes !== undefined ? formatMemory(fp.memory.total_bytes) : undefined],
    ['Storage', (fp.storage ?? []).map((d) => `${d.model ?? 'drive'} (${formatBytes(d.size_bytes)}${d.media_type ? ` ${d.media_type}` : ''})`).join(', ') || undefined],
    ['Graphics', list(f.gpus).map((g) => str(g.model)).filter(Boolean).join(', ') || undefined],
    ['Display', list(f.displays).map((d) => join(d.manufacturer, d.name ?? d.product_code, d.connector ? `(${String(d.connector)})` : '')).join(', ') || undefined],
    ['Battery', list(f.batteries).map((b) => `${b.health_pct !== undefined ? `${String(b.health_pct)}% health` : 'present'}${b.cycle_count !== undefined ? `, ${String(b.cycle_count)} cycles` : ''}`).join('; ') || 'none found'],
    ['Firmware', join(fp.firmware?.mode, fp.firmware?.secure_boot === undefined ? undefined : fp.firmware.secure_boot ? '· Secure Boot on' : '· Secure Boot off', fp.bios ? `· BIOS ${fp.bios.vendor ?? ''} ${fp.bios.version ?? ''}` : undefined) || undefined],
    ['TPM', str(fp.tpm?.version)],
    ['Wi-Fi', list(f.wifi_adapters).map((w) => str(w.name)).filter(Boolean).join(', ') || 'none found'],
    ['Bluetooth', list(f.bluetooth).map((b) => str(b.name)).filter(Boolean).join(', ') || 'none found'],
  ];
  return out.filter((x): x is [string, string] => x[1] !== undefined && x[1] !== '');
}
