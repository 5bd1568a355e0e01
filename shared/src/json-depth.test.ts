import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

/** `{"a":{"a":…}}` nested `levels` deep, built without recursion. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('JSON nesting depth', () => {
  it('counts the top-level object as level 1 and scalars as no level', () => {
    expect(exceedsJsonDepth({ a: 1 }, 1)).toBe(false);
    expect(exceedsJsonDepth({ a: { b: 1 } }, 1)).toBe(true);
    expect(exceedsJsonDepth('text', 0)).toBe(false);
  });

  it(`allows ${MAX_JSON_DEPTH} levels and refuses one more, in objects and arrays`, () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('judges 100,000 levels without overflowing the stack', () => {
    expect(exceedsJsonDepth(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBe(true);
  });

  it('finds the one deep branch among wide shallow ones', () => {
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { v: [i] }]));
    expect(exceedsJsonDepth({ ...wide, deep: nested(100) })).toBe(true);
    expect(exceedsJsonDepth(wide)).toBe(false);
  });
});
