import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { asArray, asCount, asText, at, compact } from './unknown.js';

/** One namespace block device from `nvme list -o json`. */
export interface NvmeListEntry {
  /** `/dev/nvme0n1`. */
  readonly devicePath: string;
  /** Controller name (`nvme0`) when the 2.x layout gives it. */
  readonly controller?: string;
  readonly serial?: string;
  readonly model?: string;
  readonly firmware?: string;
  readonly nsid?: number;
  readonly usedBytes?: number;
  readonly physicalSizeBytes?: number;
  readonly sectorSize?: number;
  /** `pcie`, `tcp`, `rdma`, ... (2.x only). Only `pcie` is a local drive. */
  readonly transport?: string;
}

function flatEntry(d: unknown): NvmeListEntry[] {
  const devicePath = asText(at(d, 'DevicePath'));
  if (!devicePath) return [];
  return [
    compact<NvmeListEntry>({
      devicePath,
      serial: asText(at(d, 'SerialNumber')),
      model: asText(at(d, 'ModelNumber')),
      firmware: asText(at(d, 'Firmware')),
      nsid: asCount(at(d, 'NameSpace')),
      usedBytes: asCount(at(d, 'UsedBytes')),
      physicalSizeBytes: asCount(at(d, 'PhysicalSize')),
      sectorSize: asCount(at(d, 'SectorSize')),
    }),
  ];
}

/** nvme-cli 2.11+: Devices[].Subsystems[].Controllers[].Namespaces[] (plus subsystem-level namespaces). */
function nestedEntries(host: unknown): NvmeListEntry[] {
  return (asArray(at(host, 'Subsystems')) ?? []).flatMap((subsystem) =>
    (asArray(at(subsystem, 'Controllers')) ?? []).flatMap((ctrl) =>
      [...(asArray(at(ctrl, 'Namespaces')) ?? []), ...(asArray(at(subsystem, 'Namespaces')) ?? [])].flatMap((ns) => {
        const name = asText(at(ns, 'NameSpace'));
        if (!name) return [];
        return [
          compact<NvmeListEntry>({
            devicePath: name.startsWith('/') ? name : `/dev/${name}`,
            controller: asText(at(ctrl, 'Controller')),
            serial: asText(at(ctrl, 'SerialNumber')),
            model: asText(at(ctrl, 'ModelNumber')),
            firmware: asText(at(ctrl, 'Firmware')),
            nsid: asCount(at(ns, 'NSID')),
            usedBytes: asCount(at(ns, 'UsedBytes')),
            physicalSizeBytes: asCount(at(ns, 'PhysicalSize')),
            sectorSize: asCount(at(ns, 'SectorSize')),
            transport: asText(at(ctrl, 'Transport')),
          }),
        ];
      }),
    ),
  );
}

/** Parses `nvme list -o json` in the 1.x/2.3 flat layout and the 2.11 nested layout. */
export function parseNvmeList(input: unknown): ParseResult<NvmeListEntry[]> {
  const devices = asArray(at(input, 'Devices'));
  if (!devices) return unparsable('not nvme list JSON (no "Devices" array)');
  const entries = devices.flatMap((d) => (asArray(at(d, 'Subsystems')) ? nestedEntries(d) : flatEntry(d)));
  // One namespace can appear under several controllers (multipath); keep the first sighting.
  const seen = new Set<string>();
  return parsed(entries.filter((e) => !seen.has(e.devicePath) && seen.add(e.devicePath)));
}
