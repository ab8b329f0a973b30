/**
 * The hardware page's tables, built from the shipped data and the reports: the catalogue with numbered
 * sources, the capability matrix (hardware facts apart from engine support), memory fit of each measured
 * model on each catalogued card, and the hosts the evidence was measured on.
 */
import {
  fitRow,
  known,
  NUMBER_FORMATS,
  unknown,
  type EngineFeature,
  type FitRow,
  type GpuEntry,
  type HardwareData,
  type ModelFacts,
  type NumberFormat,
  type Report,
  type Source,
  type Support
} from "../analysis/index.ts";

/** A catalogue value as a cell: the text, the number of its source in the page's source list, how it was derived. */
export interface SourcedCell {
  text: string;
  source: number;
  /** The id of the source's entry in the page's list (prefix + number). */
  anchor: string;
  derivation: string | null;
  note: string | null;
}

export interface NumberedSource extends Source {
  id: string;
  n: number;
  anchor: string;
}

/** Numbers the sources in order of first use, so every filled cell can carry a footnote [n]. */
export class SourceList {
  readonly #byId = new Map<string, NumberedSource>();
  readonly #all: Record<string, Source>;
  readonly #prefix: string;
  /** `prefix` keeps two lists on one page apart (their anchors are src-<prefix><n>). */
  constructor(all: Record<string, Source>, prefix = "") {
    this.#all = all;
    this.#prefix = prefix;
  }
  /** The number of a source (numbered on first use). */
  number(id: string): NumberedSource {
    let s = this.#byId.get(id);
    if (s === undefined) {
      const n = this.#byId.size + 1;
      s = {...this.#all[id]!, id, n, anchor: `src-${this.#prefix}${n}`};
      this.#byId.set(id, s);
    }
    return s;
  }
  cell(
    v: {value: number | string | boolean; source: string; derivation?: string; note?: string} | undefined,
    unit = ""
  ) {
    if (v === undefined) return null;
    const s = this.number(v.source);
    const text = typeof v.value === "boolean" ? (v.value ? "yes" : "no") : `${v.value}${unit}`;
    return {
      text,
      source: s.n,
      anchor: s.anchor,
      derivation: v.derivation ?? null,
      note: v.note ?? null
    } satisfies SourcedCell;
  }
  get list(): NumberedSource[] {
    return [...this.#byId.values()];
  }
}

export interface CatalogueRow {
  card: GpuEntry;
  cells: Record<string, SourcedCell | null>;
  tflops: Partial<Record<NumberFormat, SourcedCell | null>>;
}

/** The formats that have a dense throughput for at least one card (the columns worth printing). */
export const shownFormats = (gpus: readonly GpuEntry[]): NumberFormat[] =>
  NUMBER_FORMATS.filter((f) => gpus.some((g) => g.dense_tflops[f] !== undefined));

export function catalogueRows(data: HardwareData, sources: SourceList): CatalogueRow[] {
  const formats = shownFormats(data.catalogue.gpus);
  return data.catalogue.gpus.map((g) => ({
    card: g,
    cells: {
      architecture: sources.cell(g.architecture),
      form: sources.cell(g.form_factor),
      memory: sources.cell(g.memory_gb, " GB"),
      memoryType: sources.cell(g.memory_type),
      bandwidth: sources.cell(g.memory_bandwidth_gbs, " GB/s"),
      tdp: sources.cell(g.tdp_w, " W"),
      nvlink: sources.cell(g.nvlink?.bandwidth_gbs, " GB/s"),
      nvlinkGen: sources.cell(g.nvlink?.generation),
      pcie: sources.cell(g.pcie_generation),
      mig: sources.cell(g.mig)
    },
    tflops: Object.fromEntries(formats.map((f) => [f, sources.cell(g.dense_tflops[f])]))
  }));
}

/** Hardware facts of the capability matrix: native formats, NVLink, MIG, memory; yes / no / unknown. */
export const CAPABILITY_FORMATS = ["fp8", "fp6", "fp4", "mxfp4"] as const satisfies readonly NumberFormat[];

export function capabilityOf(card: GpuEntry, sources: SourceList) {
  return {
    formats: Object.fromEntries(CAPABILITY_FORMATS.map((f) => [f, sources.cell(card.native_formats[f])])),
    nvlink: sources.cell(card.nvlink?.generation === undefined ? undefined : card.nvlink.generation),
    mig: sources.cell(card.mig),
    memory: sources.cell(card.memory_gb, " GB")
  };
}

/** One engine feature on one card: through the card's architecture, as the engine's documentation says. */
export function engineSupport(f: EngineFeature, card: GpuEntry): Support {
  const arch = card.architecture?.value;
  return arch === undefined ? "unknown" : (f.by_architecture[arch] ?? "unknown");
}

/** The memory-fit grid of the hardware page: contexts × concurrencies. */
export const FIT_GRID: readonly {context: number; concurrency: number}[] = [
  {context: 4096, concurrency: 1},
  {context: 4096, concurrency: 32},
  {context: 32768, concurrency: 1},
  {context: 32768, concurrency: 8},
  {context: 131072, concurrency: 1}
];

/** One card's memory (catalogue, one GPU, 10⁹ bytes per GB) as a Fact. */
const cardMemory = (card: GpuEntry) =>
  card.memory_gb === undefined
    ? unknown(`${card.name}: memory not in a source`)
    : known(card.memory_gb.value * 1e9, `${card.memory_gb.value} GB (catalogue)`);

export interface ModelFit {
  model: string;
  facts: ModelFacts;
  bundles: string[];
  rows: {card: GpuEntry; cells: FitRow[]}[];
}

/**
 * Each measured model whose weights and KV bytes per token are known, on each catalogued card (one GPU): does
 * weights + KV cache fit at each grid point. Models with unknown facts are listed with the reason instead.
 */
export function modelFits(
  reports: readonly Report[],
  data: HardwareData
): {fits: ModelFit[]; unknown: {model: string; reason: string}[]} {
  const byModel = new Map<string, {facts: ModelFacts; bundles: string[]}>();
  for (const r of reports) {
    const h = r.hardware;
    if (h === undefined || r.provenance?.kind === "imported") continue;
    const name = h.model.name ?? r.meta.model ?? "?";
    const seen = byModel.get(name);
    const better =
      seen === undefined || (seen.facts.kvBytesPerToken.value === null && h.model.kvBytesPerToken.value !== null);
    if (better) byModel.set(name, {facts: h.model, bundles: [...(seen?.bundles ?? []), r.bundle]});
    else seen.bundles.push(r.bundle);
  }
  const fits: ModelFit[] = [];
  const missing: {model: string; reason: string}[] = [];
  for (const [model, {facts, bundles}] of [...byModel].sort(([a], [b]) => a.localeCompare(b))) {
    const reason = facts.weightBytes.reason ?? facts.kvBytesPerToken.reason;
    if (reason !== null) {
      missing.push({model, reason});
      continue;
    }
    fits.push({
      model,
      facts,
      bundles,
      rows: data.catalogue.gpus.map((card) => ({
        card,
        cells: FIT_GRID.map((g) => fitRow(facts, cardMemory(card), g.context, g.concurrency))
      }))
    });
  }
  return {fits, unknown: missing};
}

export interface HostRow {
  key: string;
  host: NonNullable<Report["hardware"]>["host"];
  bundles: string[];
}

/** The hosts the evidence was measured on (collected bundles), one row per distinct host and GPU set. */
export function measuredHosts(reports: readonly Report[]): HostRow[] {
  const rows = new Map<string, HostRow>();
  for (const r of reports) {
    const h = r.hardware?.host;
    if (h === undefined || h.kind === "declared" || h.kind === "unknown") continue;
    const key = [h.cpu.model, h.cpu.threads, h.cpu.memoryBytes, ...h.gpus.map((g) => g.uuid ?? g.name)].join("|");
    const row = rows.get(key);
    if (row === undefined) rows.set(key, {key, host: h, bundles: [r.bundle]});
    else {
      row.bundles.push(r.bundle);
      if (row.host.hostBandwidthGBs.value === null && h.hostBandwidthGBs.value !== null) row.host = h;
    }
  }
  return [...rows.values()];
}
