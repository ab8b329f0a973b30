/**
 * Appends every item to `target` in place. `target.push(...items)` passes each item as an argument and
 * overflows the stack beyond ~120k of them (lint forbids it); this loops.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
