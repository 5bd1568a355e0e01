import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './fixed-window.js';

describe('fixed-window counter', () => {
  it('counts hits per key within the window and starts over after it', () => {
    const sut = new FixedWindowCounter(2, 1000);
    expect(sut.hit('a', 0)).toMatchObject({ count: 1, remaining: 1, limited: false, resetAt: 1000 });
    expect(sut.hit('a', 10)).toMatchObject({ count: 2, remaining: 0, limited: false });
    expect(sut.hit('a', 20)).toMatchObject({ count: 3, remaining: 0, limited: true });
    expect(sut.hit('b', 20)).toMatchObject({ count: 1, limited: false });
    expect(sut.peek('a', 999)).toMatchObject({ count: 3 });
    expect(sut.hit('a', 1000)).toMatchObject({ count: 1, limited: false, resetAt: 2000 });
    sut.reset('a');
    expect(sut.peek('a', 1001).count).toBe(0);
  });

  it('never holds more keys than its cap', () => {
    const sut = new FixedWindowCounter(1, 1000, 3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) sut.hit(key, 0);
    expect(sut.peek('e', 1).count).toBe(1);
    expect(['a', 'b', 'c', 'd', 'e'].filter((k) => sut.peek(k, 1).count > 0).length).toBeLessThanOrEqual(3);
  });
});
