import { describe, expect, it } from 'vitest';
import { aboutTime } from './headless.js';

describe('the plan time on the headless console', () => {
  it('says seconds under a minute and whole minutes from there, never "0.45 min"', () => {
    expect(aboutTime(27 / 60)).toBe('27 s');
    expect(aboutTime(0.001)).toBe('1 s');
    expect(aboutTime(80 / 60)).toBe('1 min');
    expect(aboutTime(12.6)).toBe('13 min');
  });
});
