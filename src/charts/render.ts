import {parseHTML} from "linkedom";

/** A fresh server-side DOM document for Plot. */
export function serverDocument(): Document {
  return parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;
}

/** How a chart is named for assistive technology: its own text, or the id of the caption that names it. */
export type ChartName = {label: string} | {labelledBy: string};

/**
 * The chart's plot: the element itself when it is an SVG, else (Plot wraps a plot with a legend in a figure)
 * the SVG that is the wrapper's direct child; the legend's swatches are SVGs nested deeper.
 */
function plotSvg(el: Element): Element | null {
  if (el.tagName.toLowerCase() === "svg") return el;
  return [...el.children].find((c) => c.tagName.toLowerCase() === "svg") ?? null;
}

/**
 * Makes a rendered chart one image to a screen reader: the plot SVG gets role="img" and, when given, its
 * name (without one it keeps Plot's own aria-label, if any); every other SVG (a legend swatch, whose series
 * name is the text beside it) is hidden as decoration. Without this a screen reader walks every tick label.
 */
function makeAccessible(el: Element, name?: ChartName): void {
  const plot = plotSvg(el);
  for (const svg of el.tagName.toLowerCase() === "svg" ? [el] : el.querySelectorAll("svg"))
    if (svg !== plot) svg.setAttribute("aria-hidden", "true");
  if (plot === null) return;
  plot.setAttribute("role", "img");
  if (name === undefined) return;
  if ("label" in name) plot.setAttribute("aria-label", name.label);
  else {
    plot.removeAttribute("aria-label");
    plot.setAttribute("aria-labelledby", name.labelledBy);
  }
}

/**
 * Renders a chart builder to markup; SVGs get an xmlns so the output also works standalone, and the plot is
 * one named image to a screen reader (`name`: see makeAccessible).
 */
export function renderChart(build: (document: Document) => Element, name?: ChartName): string {
  const el = build(serverDocument());
  if (el.tagName.toLowerCase() === "svg" && !el.getAttribute("xmlns"))
    el.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  for (const svg of el.querySelectorAll("svg"))
    if (!svg.getAttribute("xmlns")) svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  makeAccessible(el, name);
  return el.outerHTML;
}

/**
 * Names an already rendered chart (markup from renderChart) after the fact, e.g. by the id of the caption a
 * page gives it. The markup is re-parsed by the same server DOM that wrote it, so nothing is inserted as text.
 */
export function nameChart(markup: string, name: ChartName): string {
  const {document} = parseHTML(`<!doctype html><html><body>${markup}</body></html>`);
  const el = (document as unknown as Document).body.firstElementChild;
  if (el === null) return markup;
  makeAccessible(el, name);
  return el.outerHTML;
}

/** Normalises rendered SVG for snapshot tests: numbers to 3 decimals, generated ids renumbered. */
export function normalizeSvg(markup: string): string {
  const ids = new Map<string, string>();
  return markup
    .replace(/\d+\.\d{4,}/g, (m) => Number(m).toFixed(3))
    .replace(/plot-[a-z0-9]+(-\d+)?/g, (m) => {
      if (!ids.has(m)) ids.set(m, `plot-${ids.size}`);
      return ids.get(m)!;
    });
}

/**
 * A page-unique id for a chart's caption when the page gives the chart none: FNV-1a (32 bits) of the caption
 * and the markup, so one build writes the same id every time and two different charts on a page differ.
 */
export function captionId(caption: string, markup: string): string {
  let h = 0x811c9dc5;
  const text = `${caption}\u0000${markup}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `chart-caption-${h.toString(36)}`;
}
