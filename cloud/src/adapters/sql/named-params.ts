/**
 * Rewrites `@name` parameters to PostgreSQL's `$n`, numbering each distinct name once, and
 * leaves quoted text, quoted identifiers and comments alone. SQLite binds `@name` itself.
 */
export interface PositionalSql {
  text: string;
  /** Parameter names in `$n` order: `names[0]` binds `$1`. */
  names: string[];
}

const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|@([A-Za-z_][A-Za-z0-9_]*)/g;

export function toPositional(sql: string): PositionalSql {
  const names: string[] = [];
  const text = sql.replace(TOKEN, (match, name: string | undefined) => {
    if (name === undefined) return match;
    let index = names.indexOf(name);
    if (index === -1) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}

/** The values of `params` in the order `names` binds them; a missing name is a caller's bug. */
export function bindPositional(names: readonly string[], params: Readonly<Record<string, unknown>>): unknown[] {
  return names.map((name) => {
    if (!(name in params)) throw new Error(`missing SQL parameter @${name}`);
    const value = params[name];
    return value === undefined ? null : value;
  });
}
