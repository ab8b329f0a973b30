/**
 * Select page island (progressive enhancement): reads the candidates embedded in a data attribute, runs
 * the same pure selectConfigs() as the build on the constraints in the form, and redraws the results with
 * DOM text nodes only. The constraints are mirrored in the URL query so a selection can be shared.
 */
import {selectConfigs, type Candidate, type Constraints} from "./browser.ts";

type Labels = Record<
  | "rank"
  | "noRecommendation"
  | "bundle"
  | "point"
  | "model"
  | "hardware"
  | "engine"
  | "perGpu"
  | "interactivity"
  | "reasons"
  | "none"
  | "noneExcluded"
  | "runs"
  | "usdPerMOutput"
  | "joulesPerToken"
  | "sparse",
  string
>;

type Fact = NonNullable<Candidate["cost"]>["perMOutput"];
const NO_FACT: Fact = {value: null, from: null, reason: "the analysis was not given the hardware data"};

const num = (v: number | null) => {
  if (v === null || !Number.isFinite(v)) return "—";
  const a = Math.abs(v);
  return a >= 1000
    ? Math.round(v).toLocaleString("en-US")
    : a >= 100
      ? v.toFixed(1)
      : a >= 1
        ? v.toFixed(2)
        : v.toPrecision(2);
};

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(typeof c === "string" ? doc.createTextNode(c) : c);
  return e;
}

export function readConstraints(form: HTMLFormElement): Constraints {
  const f = new FormData(form);
  const numOrNull = (name: string) => {
    const v = String(f.get(name) ?? "").trim();
    return v === "" || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  const p = String(f.get("p") ?? "p95");
  const q = numOrNull("q");
  return {
    percentile: (["p50", "p90", "p95", "p99"].includes(p) ? p : "p95") as Constraints["percentile"],
    slo: {ttft_ms: numOrNull("ttft_ms"), itl_ms: numOrNull("itl_ms"), e2e_ms: numOrNull("e2e_ms")},
    minSamples: numOrNull("n") ?? 0,
    minQuality: q === null ? null : q / 100,
    qualityScorer: String(f.get("scorer") ?? "") || null,
    hardware: f.getAll("hw").map(String),
    model: String(f.get("model") ?? "") || null,
    maxUsdPerMOutput: numOrNull("usd_mout"),
    maxJoulesPerToken: numOrNull("j_tok"),
    rankBy: f.get("rank") === "cost" ? "cost" : "throughput"
  };
}

// eslint-disable-next-line max-lines-per-function -- the island's wiring and its render closure share the form, the candidates and the labels; the browser test covers it
export function enhanceSelect(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>("form[data-select-form]");
  const results = doc.querySelector<HTMLElement>("[data-results]");
  if (!form || !results) return;
  const candidates = JSON.parse(form.dataset.candidates ?? "[]") as Candidate[];
  const labels = JSON.parse(form.dataset.labels ?? "{}") as Labels;
  // the hardware labels in the page's language (localized at build time), keyed by the analyzer's label
  const hardwareNames = JSON.parse(form.dataset.hardwareNames ?? "{}") as Record<string, string>;
  const hardwareOf = (c: Candidate) => hardwareNames[c.hardware] ?? c.hardware;
  const lang = (["en", "zh"] as const).find((l) => l === form.dataset.lang) ?? "en";
  const fieldset = form.querySelector<HTMLFieldSetElement>("[data-enable]");
  if (fieldset) fieldset.disabled = false;
  form.querySelector("[data-static-note]")?.remove();

  // Constraints from the URL query, when present.
  const params = new URLSearchParams(doc.location.search);
  for (const [k, v] of params) {
    const input = form.elements.namedItem(k);
    if (input instanceof HTMLInputElement && input.type !== "checkbox") input.value = v;
    else if (input instanceof HTMLSelectElement) input.value = v;
  }
  for (const box of Array.from(form.querySelectorAll<HTMLInputElement>("input[name=hw]")))
    box.checked = params.getAll("hw").includes(box.value);

  const link = (c: Candidate) => el(doc, "a", {href: `${labels.runs}${encodeURIComponent(c.bundle)}/`}, c.bundle);
  const tput = (c: Candidate) => `${num(c.throughputPerGpu)} ${c.divisorKind === "host" ? "tok/s/host" : "tok/s/GPU"}`;
  // A known value, or "—" with the reason as its title (unknown is never 0).
  const fact = (f: Fact, text: (v: number) => string, note?: string) =>
    f.value === null
      ? el(doc, "span", {class: "unknown", title: f.reason ?? ""}, "—")
      : el(doc, "span", note === undefined ? {} : {title: note}, text(f.value), note === undefined ? "" : "*");
  const usdCell = (c: Candidate) => fact(c.cost?.perMOutput ?? NO_FACT, (v) => `$${num(v)}`);
  const jCell = (c: Candidate) =>
    fact(
      c.energy?.joulesPerOutputToken ?? NO_FACT,
      (v) => `${num(v)} J`,
      c.energy?.sparse ? `${labels.sparse}: ${c.energy.reason ?? ""}` : undefined
    );

  // eslint-disable-next-line max-lines-per-function -- renders the result tables in page order (see above)
  const render = () => {
    const k = readConstraints(form);
    const sel = selectConfigs(candidates, k);
    const p = k.percentile;
    const heading = (text: string) => el(doc, "h2", {}, text);
    const h2s = Array.from(results.querySelectorAll("h2")).map((h) => h.textContent ?? "");
    results.replaceChildren();
    results.append(heading(h2s[0] ?? ""));
    if (sel.noRecommendation) {
      const box = el(doc, "div", {class: "banner bad", "data-no-recommendation": ""});
      box.append(el(doc, "p", {}, el(doc, "strong", {}, labels.noRecommendation)));
      box.append(el(doc, "ul", {}, ...sel.noRecommendation.map((r) => el(doc, "li", {}, r[lang]))));
      results.append(box);
    } else {
      const cards = el(doc, "div", {class: "cards"});
      for (const {candidate: c} of sel.recommended)
        cards.append(
          el(
            doc,
            "article",
            {class: "card", "data-recommended": `${c.bundle}|${c.point}`},
            el(doc, "h3", {}, c.model ?? "—"),
            el(
              doc,
              "p",
              {},
              link(c),
              " · ",
              el(doc, "code", {}, c.point),
              ...(c.variant === null ? [] : [" · ", el(doc, "span", {"data-variant": c.variant.name}, c.variant.name)])
            ),
            el(doc, "p", {}, `${hardwareOf(c)} · ${c.engine ?? "—"}`),
            el(doc, "p", {}, el(doc, "strong", {}, tput(c)), ` · ${num(c.interactivity)} tok/s/user`),
            el(
              doc,
              "p",
              {"data-cost": ""},
              `${labels.usdPerMOutput} `,
              usdCell(c),
              ` · ${labels.joulesPerToken} `,
              jCell(c)
            ),
            el(
              doc,
              "p",
              {class: "muted"},
              `TTFT ${p} ${num(c.latency.ttft_ms[p])} ms · ITL ${p} ${num(c.latency.itl_ms[p])} ms · n=${c.nSuccess}`
            )
          )
        );
      results.append(cards);
    }
    results.append(heading(h2s[1] ?? ""));
    if (sel.qualifying.length === 0) results.append(el(doc, "p", {class: "muted"}, labels.none));
    else {
      const head = [
        labels.rank,
        labels.bundle,
        labels.point,
        labels.model,
        labels.hardware,
        labels.engine,
        labels.perGpu,
        labels.interactivity,
        labels.usdPerMOutput,
        labels.joulesPerToken
      ];
      const rows = sel.qualifying.map(({candidate: c, rank}) =>
        el(
          doc,
          "tr",
          {},
          el(doc, "td", {class: "num"}, String(rank)),
          el(doc, "td", {}, link(c)),
          el(doc, "td", {}, el(doc, "code", {}, c.point)),
          el(doc, "td", {}, c.model ?? "—"),
          el(doc, "td", {}, hardwareOf(c)),
          el(doc, "td", {}, c.engine ?? "—"),
          el(doc, "td", {class: "num"}, tput(c)),
          el(doc, "td", {class: "num"}, num(c.interactivity)),
          el(doc, "td", {class: "num"}, usdCell(c)),
          el(doc, "td", {class: "num"}, jCell(c))
        )
      );
      results.append(table(doc, "qualifying", head, rows));
    }
    results.append(heading(h2s[2] ?? ""));
    if (sel.excluded.length === 0) results.append(el(doc, "p", {class: "muted"}, labels.noneExcluded));
    else {
      const rows = sel.excluded.map(({candidate: c, reasons}) =>
        el(
          doc,
          "tr",
          {"data-excluded": `${c.bundle}|${c.point}`},
          el(doc, "td", {}, link(c)),
          el(doc, "td", {}, el(doc, "code", {}, c.point)),
          el(doc, "td", {}, c.model ?? "—"),
          el(doc, "td", {}, hardwareOf(c)),
          el(doc, "td", {class: "num"}, usdCell(c)),
          el(doc, "td", {class: "num"}, jCell(c)),
          el(
            doc,
            "td",
            {},
            el(doc, "ul", {class: "plain"}, ...reasons.map((r) => el(doc, "li", {"data-code": r.code}, r.text[lang])))
          )
        )
      );
      results.append(
        table(
          doc,
          "excluded",
          [
            labels.bundle,
            labels.point,
            labels.model,
            labels.hardware,
            labels.usdPerMOutput,
            labels.joulesPerToken,
            labels.reasons
          ],
          rows
        )
      );
    }
  };

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v) !== "") q.append(k, String(v));
    history.replaceState(null, "", `?${q}`);
    render();
  });
  form.addEventListener("change", render);
  form.addEventListener("reset", () => setTimeout(render, 0));
  render();
}

function table(doc: Document, cls: string, head: string[], rows: HTMLElement[]): HTMLElement {
  const wrap = el(doc, "div", {class: "table-wrap"});
  const t = el(doc, "table", {class: cls});
  t.append(el(doc, "thead", {}, el(doc, "tr", {}, ...head.map((h) => el(doc, "th", {scope: "col"}, h)))));
  t.append(el(doc, "tbody", {}, ...rows));
  wrap.append(t);
  return wrap;
}
