/**
 * Deepest nesting a device body may have. A real fingerprint is 4–5 levels deep; SQLite's JSON
 * functions stop at 1,000 and a recursive encoder overflows the stack a little further on, so
 * anything deeper is refused at the edge and again in the cloud.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects or arrays more than `maxDepth` levels (the top-level object is
 * level 1). Iterative, so a hostile 100,000-level document cannot overflow the stack here, and
 * it stops at the first branch that is too deep.
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}
