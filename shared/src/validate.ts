import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerOf<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

/**
 * Checks an `unknown` (a parsed body, a tool's JSON, a server's answer) against a contract.
 * Nothing is coerced or stripped: it either is the contract or it is refused.
 */
export function parseUnknown<T extends TSchema>(schema: T, value: unknown): Parsed<Static<T>> {
  const check = checkerOf(schema);
  if (check.Check(value)) return { ok: true, value };
  const first = check.Errors(value).First();
  return { ok: false, path: first?.path || '/', message: first?.message ?? 'invalid' };
}

/** True when `value` satisfies the contract. */
export function conforms<T extends TSchema>(schema: T, value: unknown): value is Static<T> {
  return checkerOf(schema).Check(value);
}
