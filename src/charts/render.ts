import {parseHTML} from "linkedom";

/** A fresh server-side DOM document for Plot. */
export function serverDocument(): Document {
  return parseHTML("<!doctype html><html><body></body></html>").document as unknown as Document;
}

/** Renders a chart builder to markup; SVGs get an xmlns so the output also works standalone. */
export function renderChart(build: (document: Document) => Element): string {
  const el = build(serverDocument());
  if (el.tagName.toLowerCase() === "svg" && !el.getAttribute("xmlns"))
    el.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  for (const svg of el.querySelectorAll("svg"))
    if (!svg.getAttribute("xmlns")) svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
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
