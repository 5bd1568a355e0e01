import { describe, expect, it } from 'vitest';
import { agentState } from '../../store/test-fixtures.js';
import { driveRows } from './drive-rows.js';

const nvme = {
  device: '/dev/nvme0n1',
  model: 'Samsung SSD 960 EVO 1TB',
  serial: 'S3X1NB0J',
  size_bytes: 1_000_204_886_016,
  media_type: 'SSD' as const,
  transport: 'nvme',
  internal: true,
  plan: { ok: false as const, reason: 'the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked' },
  self_encryption: { words: 'self-encrypting (Opal 2, locked)', locked: true },
};

describe('the drives view of a self-encrypting drive', () => {
  it('shows "self-encrypting (Opal 2, locked)" on the drive row, and a locked one cannot be picked for an erase', () => {
    const [row] = driveRows(agentState({ drives: [nvme] }));
    expect(row).toMatchObject({ selfEncryption: 'self-encrypting (Opal 2, locked)', sedLocked: true, psidHere: true, selectable: false });
  });

  it('offers no PSID revert here for a locked drive the agent says this image cannot revert (SATA or SAS, no sedutil-cli)', () => {
    const sata = { ...nvme, device: '/dev/sdb', transport: 'sata', self_encryption: { words: 'self-encrypting (Opal 2, locked)', locked: true, revert_here: false } };
    expect(driveRows(agentState({ drives: [sata] }))[0]).toMatchObject({ sedLocked: true, psidHere: false, selectable: false });
  });

  it('shows an unlocked one as self-encrypting and leaves it to its plan', () => {
    const unlocked = { ...nvme, plan: { ok: true as const, method: 'nvme-sanitize-crypto', label: 'NIST 800-88 R2 Purge', category: 'Purge' as const, technique: 'Cryptographic erase', fully_sanitized: true, warnings: [] }, self_encryption: { words: 'self-encrypting (Opal 2, unlocked)', locked: false } };
    expect(driveRows(agentState({ drives: [unlocked] }))[0]).toMatchObject({ selfEncryption: 'self-encrypting (Opal 2, unlocked)', sedLocked: false, selectable: true });
  });

  it('says nothing for a drive the agent did not find self-encrypting', () => {
    const { self_encryption: _, ...plain } = nvme;
    expect(driveRows(agentState({ drives: [plain] }))[0]).toMatchObject({ selfEncryption: undefined, sedLocked: false });
  });
});
