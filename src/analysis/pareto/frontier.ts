/**
 * Pareto frontier when both coordinates are better higher: the points no other point beats on both.
 * Returned sorted by x ascending (the order to draw the frontier line). Ties on both coordinates keep one point.
 */
export function paretoFrontier<T>(points: readonly T[], x: (p: T) => number, y: (p: T) => number): T[] {
  const sorted = [...points].sort((a, b) => x(b) - x(a) || y(b) - y(a));
  const out: T[] = [];
  let bestY = -Infinity;
  for (const p of sorted) {
    if (y(p) > bestY) {
      out.push(p);
      bestY = y(p);
    }
  }
  return out.reverse();
}
