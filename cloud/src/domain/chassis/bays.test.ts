import { describe, expect, it } from 'vitest';
import { usableBays } from './bays.js';

describe('chassis bays', () => {
  it('drops bays missing a non-blank lane or label', () => {
    const sut = usableBays([
      { lane: 'sata-1', label: 'Bay 1' },
      { lane: '  ', label: 'Bay 2' },
      { lane: 'sata-3' },
      { label: 'Bay 4' },
      { lane: 3, label: 'Bay 5' },
      null,
      'bay',
    ]);
    expect(sut).toEqual([{ lane: 'sata-1', label: 'Bay 1' }]);
  });

  it('keeps connector only when it is an object', () => {
    const sut = usableBays([
      { lane: 'a', label: 'A', connector: { port: 2 } },
      { lane: 'b', label: 'B', connector: 'port 2' },
      { lane: 'c', label: 'C', connector: [1] },
    ]);
    expect(sut).toEqual([
      { lane: 'a', label: 'A', connector: { port: 2 } },
      { lane: 'b', label: 'B' },
      { lane: 'c', label: 'C' },
    ]);
  });

  it('leaves nothing when no bay is usable', () => {
    expect(usableBays([{ lane: '', label: '' }])).toEqual([]);
    expect(usableBays(undefined)).toEqual([]);
  });
});
