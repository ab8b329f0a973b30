/** ns → ms. */
export const ms = (ns: number): number => ns / 1e6;

/** Difference b − a in ms, null when either end is unknown. */
export function spanMs(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : ms(b - a);
}
