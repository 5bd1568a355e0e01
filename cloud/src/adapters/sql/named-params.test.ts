import { describe, expect, it } from 'vitest';
import { bindPositional, toPositional } from './named-params.js';

describe('named parameters for PostgreSQL', () => {
  it('numbers each distinct name once, in order of first use', () => {
    const { text, names } = toPositional('UPDATE t SET a = @a, b = @b WHERE a <> @a AND c = @c2');
    expect(text).toBe('UPDATE t SET a = $1, b = $2 WHERE a <> $1 AND c = $3');
    expect(names).toEqual(['a', 'b', 'c2']);
  });

  it('leaves @ inside string literals, quoted identifiers and comments alone', () => {
    const { text, names } = toPositional(
      `SELECT 'a@b.example', 'it''s @x', "col@y" FROM t -- @z\n WHERE /* @w */ id = @id`,
    );
    expect(text).toBe(`SELECT 'a@b.example', 'it''s @x', "col@y" FROM t -- @z\n WHERE /* @w */ id = $1`);
    expect(names).toEqual(['id']);
  });

  it('binds values by name, undefined as NULL', () => {
    expect(bindPositional(['b', 'a'], { a: 1, b: undefined })).toEqual([null, 1]);
  });

  it('refuses a statement whose parameter was not given', () => {
    expect(() => bindPositional(['a'], {})).toThrow('missing SQL parameter @a');
  });
});
