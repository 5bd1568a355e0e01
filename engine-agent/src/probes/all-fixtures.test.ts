import { describe, expect, it } from 'vitest';
import { fixtureBytes, fixtureFiles, fixtureText, fixtureTools, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseDmidecode } from './dmidecode.js';
import { parseEdid, parseEdidDecodeText } from './edid.js';
import { parseHdparmDco, parseHdparmHpa, parseHdparmIdentify, parseHdparmIssued } from './hdparm.js';
import { parseLsblkJson, parseLsblkText } from './lsblk.js';
import { parseNvmeIdCtrlJson, parseNvmeIdCtrlText, parseNvmeIdNsText } from './nvme-id.js';
import { parseNvmeList } from './nvme-list.js';
import { parseNvmeOcpSmartLog, parseNvmeSmartLog, parseNvmeVendorLog } from './nvme-logs.js';
import { parseJsonText, type ParseResult } from './parse-result.js';
import { parseSmartctlJson, parseSmartctlScan } from './smartctl-json.js';
import { parseSmartctlText } from './smartctl-text.js';
import { parseUdevadmInfo } from './udevadm.js';
import { parseUpower } from './upower.js';

type Parse = (tool: string, name: string) => ParseResult<unknown>;

const json =
  (parse: (input: unknown) => ParseResult<unknown>): Parse =>
  (tool, name) => {
    const value = parseJsonText(fixtureText(tool, name));
    return value.ok ? parse(value.value) : value;
  };
const text =
  (parse: (input: string) => ParseResult<unknown>): Parse =>
  (tool, name) =>
    parse(fixtureText(tool, name));

/**
 * Which parser reads which capture, decided from the folder and the file name. A capture that
 * matches no rule fails the suite, so a new fixture kind cannot slip by untested.
 */
const RULES: ReadonlyArray<{ tool: string; match: RegExp; parse: Parse | 'archive' }> = [
  { tool: 'dmidecode', match: /\.txt$/, parse: text(parseDmidecode) },
  { tool: 'smartctl', match: /^scan-.*\.json$/, parse: json(parseSmartctlScan) },
  { tool: 'smartctl', match: /\.json$/, parse: json(parseSmartctlJson) },
  { tool: 'smartctl', match: /\.txt$/, parse: text(parseSmartctlText) },
  { tool: 'lsblk', match: /\.json$/, parse: json(parseLsblkJson) },
  { tool: 'lsblk', match: /\.txt$/, parse: text(parseLsblkText) },
  { tool: 'nvme', match: /id-ctrl.*\.json$/, parse: json(parseNvmeIdCtrlJson) },
  { tool: 'nvme', match: /id-ctrl.*\.txt$/, parse: text(parseNvmeIdCtrlText) },
  { tool: 'nvme', match: /id-ns.*\.txt$/, parse: text(parseNvmeIdNsText) },
  { tool: 'nvme', match: /nvme-list.*\.json$/, parse: json(parseNvmeList) },
  { tool: 'nvme', match: /ocp-smart-add-log.*\.json$/, parse: json(parseNvmeOcpSmartLog) },
  { tool: 'nvme', match: /smart-log.*\.json$/, parse: json(parseNvmeSmartLog) },
  { tool: 'nvme', match: /(smart-log-add|smart-add-log)\.txt$/, parse: text(parseNvmeVendorLog) },
  { tool: 'hdparm', match: /-N-/, parse: text(parseHdparmHpa) },
  { tool: 'hdparm', match: /dco-identify/, parse: text(parseHdparmDco) },
  { tool: 'hdparm', match: /transcript/, parse: text(parseHdparmIssued) },
  { tool: 'hdparm', match: /hdparm-I-/, parse: text(parseHdparmIdentify) },
  { tool: 'edid', match: /\.bin$/, parse: (tool, name) => parseEdid(fixtureBytes(tool, name)) },
  { tool: 'edid', match: /\.edid-decode\.txt$/, parse: text(parseEdidDecodeText) },
  { tool: 'misc', match: /upower/, parse: text(parseUpower) },
  { tool: 'misc', match: /udevadm-info/, parse: text(parseUdevadmInfo) },
  // The sysfs dump is an archive; misc.test.ts extracts it and reads it through readSysBlock.
  { tool: 'misc', match: /\.tar\.xz$/, parse: 'archive' },
];

/** Captures of a tool failing: the parser must say so instead of inventing a device. */
const EXPECTED_FAILURES = new Set([
  'dmidecode/no-smbios-entry-point-dmidecode-failure.txt',
  'smartctl/windows-smartctl-open-failed.json',
]);

const cases = fixtureTools().flatMap((tool) => fixtureFiles(tool).map((name) => ({ tool, name })));

describe.skipIf(!fixturesPresent)(`every capture in ${FIXTURES_SKIP_NOTE} goes through its parser`, () => {
  it('finds captures for every tool folder', () => {
    expect(fixtureTools()).toEqual(expect.arrayContaining(['dmidecode', 'edid', 'hdparm', 'lsblk', 'misc', 'nvme', 'smartctl']));
    expect(cases.length).toBeGreaterThan(100);
  });

  it.each(cases)('$tool/$name', ({ tool, name }) => {
    const rule = RULES.find((r) => r.tool === tool && r.match.test(name));
    expect(rule, `no parser registered for ${tool}/${name}`).toBeDefined();
    if (!rule || rule.parse === 'archive') return;
    const result = rule.parse(tool, name);
    if (EXPECTED_FAILURES.has(`${tool}/${name}`)) {
      expect(result.ok).toBe(false);
    } else {
      expect(result.ok ? 'parsed' : result.reason).toBe('parsed');
    }
  });
});
