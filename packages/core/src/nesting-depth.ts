/**
 * How deeply a JSON value nests, counted without recursion (a value nested 10,000 levels deep
 * must get a clear INVALID_INPUT, not overflow the stack in JSON.stringify further on). Stops
 * counting once past `limit`.
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (item.value === null || typeof item.value !== "object") continue;
    const depth = item.depth + 1;
    deepest = Math.max(deepest, depth);
    if (depth > limit) return deepest;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth });
  }
  return deepest;
}
