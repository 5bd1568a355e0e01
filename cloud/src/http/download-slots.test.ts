import { describe, expect, it } from 'vitest';
import { downloadSlots } from './download-slots.js';

describe('download slots', () => {
  it('refuse an account past its own cap while other accounts still get one', () => {
    const sut = downloadSlots({ perAccount: 2, total: 10 });
    expect(sut.take(1).ok).toBe(true);
    expect(sut.take(1).ok).toBe(true);
    expect(sut.take(1)).toEqual({ ok: false, scope: 'account' });
    expect(sut.take(2).ok).toBe(true);
  });

  it('refuse everyone past the server’s cap', () => {
    const sut = downloadSlots({ perAccount: 2, total: 3 });
    sut.take(1);
    sut.take(2);
    sut.take(3);
    expect(sut.take(4)).toEqual({ ok: false, scope: 'server' });
  });

  it('free a slot once however often it is released', () => {
    const sut = downloadSlots({ perAccount: 1, total: 2 });
    const first = sut.take(1);
    if (!first.ok) throw new Error('expected a slot');
    sut.take(2);
    first.release();
    first.release();
    expect(sut.inUse()).toBe(1);
    expect(sut.take(2)).toEqual({ ok: false, scope: 'account' });
    expect(sut.take(1).ok).toBe(true);
  });
});
