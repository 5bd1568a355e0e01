import { describe, expect, it } from 'vitest';
import { agentState } from '../../store/test-fixtures.js';
import { driveRows } from './drive-rows.js';

const plan = { ok: true as const, method: 'overwrite', label: 'NIST 800-88 R2 Clear', category: 'Clear' as const, technique: 'Overwrite, single pass with verification', fully_sanitized: true, warnings: [] };

describe('the drives view of an eMMC or SD card (issue 30 item 4)', () => {
  it('names the card in plain words from what the agent read ("SD card"), not "SSD · MMC"', () => {
    const sd = { device: '/dev/mmcblk0', model: 'SC32G', serial: '0x1c2b3a49', size_bytes: 31_914_983_424, media_type: 'SSD' as const, transport: 'mmc', internal: true, plan, connection: { summary: 'SD card', details: ['Drive type: SD card; an SD card has no sanitize or secure erase command, so it is erased by overwrite (NIST Clear)'] } };
    const [row] = driveRows(agentState({ drives: [sd] }));
    expect(row?.facts).toBe('31.9 GB · SD card · S/N 0x1c2b3a49');
  });

  it('a card the agent could not name is still a memory card, and other drives keep their medium and bus', () => {
    const card = { device: '/dev/mmcblk1', size_bytes: 16_777_216, media_type: 'SSD' as const, transport: 'mmc', internal: true, plan };
    const ssd = { device: '/dev/sda', size_bytes: 16_777_216, media_type: 'SSD' as const, transport: 'sata', internal: true, plan };
    expect(driveRows(agentState({ drives: [card, ssd] })).map((r) => r.facts)).toEqual(['16.8 MB · memory card (SD/MMC)', '16.8 MB · SSD · SATA']);
  });
});
