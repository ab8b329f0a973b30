/** Options every chart builder takes: the DOM to build in and the drawing width. */
export interface ChartOptions {
  document: Document;
  width?: number;
}

/** Shared look: transparent background (themes come from CSS `color`), 12 px text. */
export const STYLE = {background: "transparent", fontSize: "12px", overflow: "visible"} as const;

/** A short number for tooltips. */
export function short(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toString();
  if (a >= 100) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(2);
}
