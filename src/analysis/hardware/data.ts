import type {z} from "zod";

import {formatProblem, parseSpecText} from "../schema/configText.ts";
import {keyPath} from "../util/zodIssues.ts";
import {
  EngineMatrix,
  GpuCatalogue,
  PriceOverrideFile,
  PriceTable,
  type GpuEntry,
  type HardwareSpec,
  type PriceOverride
} from "../schema/hardware.ts";

/**
 * The hardware data the analysis reads (passed in by whoever reads the files: the site's loader, the CLI):
 * the GPU catalogue, the engine support matrix, the price table, and the user's own prices.
 */
export interface HardwareData {
  catalogue: GpuCatalogue;
  engines: EngineMatrix;
  prices: PriceTable;
  /** The build's own prices (INFERSCOPE_PRICES): they override the table; a run config's override wins over them. */
  overrides: PriceOverride[];
}

export type {GpuCatalogue, EngineMatrix, PriceTable};

/** A data file that did not validate: every problem as file:line:column. */
export class HardwareDataError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "HardwareDataError";
    this.problems = problems;
  }
}

/** Checks past the schema: each a key path that must name a known id, and the ids it may name. */
type IdCheck = {path: (value: unknown) => [(string | number)[], string][]; ids: ReadonlySet<string>; what: string};

const parse = <S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  what: string,
  check?: IdCheck
): z.output<S> => {
  const r = parseSpecText(text, file, schema, what);
  if (r.config === null) throw new HardwareDataError(r.problems.map(formatProblem));
  if (check !== undefined) {
    const problems = check
      .path(r.config)
      .filter(([, id]) => !check.ids.has(id))
      .map(([path, id]) =>
        formatProblem({file, ...r.locate(path), path: keyPath(path), message: `"${id}" is not ${check.what}`})
      );
    if (problems.length > 0) throw new HardwareDataError(problems);
  }
  return r.config;
};

export const parseCatalogue = (text: string, file: string): GpuCatalogue =>
  parse(text, file, GpuCatalogue, "expected a mapping with version, updated, sources and gpus");
export const parseEngines = (text: string, file: string): EngineMatrix =>
  parse(text, file, EngineMatrix, "expected a mapping with version, updated, sources and features");

/** The ids a price may name: the catalogue's cards, and cpu-host (a CPU-only host, priced per host-hour). */
const priceIds = (catalogue: GpuCatalogue | undefined): ReadonlySet<string> | null =>
  catalogue === undefined ? null : new Set([...catalogue.gpus.map((g) => g.id), "cpu-host"]);

const pricePaths = (list: readonly {gpu: string}[], key: string) =>
  list.map((p, i): [(string | number)[], string] => [[key, i, "gpu"], p.gpu]);

/** The price table; given the catalogue, a row naming a card it does not list is an error at its line. */
export function parsePrices(text: string, file: string, catalogue?: GpuCatalogue): PriceTable {
  const ids = priceIds(catalogue);
  const what = "a catalogue id (configs/hardware/gpus.yaml) or cpu-host";
  const check =
    ids === null ? undefined : {path: (t: unknown) => pricePaths((t as PriceTable).prices, "prices"), ids, what};
  return parse(text, file, PriceTable, "expected a mapping with version, date, currency, sources and prices", check);
}

/** A user's own prices (INFERSCOPE_PRICES); given the catalogue, an unknown card is an error at its line. */
export function parsePriceOverrides(text: string, file: string, catalogue?: GpuCatalogue): PriceOverride[] {
  const ids = priceIds(catalogue);
  const what = "a catalogue id (configs/hardware/gpus.yaml) or cpu-host";
  const check =
    ids === null
      ? undefined
      : {path: (t: unknown) => pricePaths((t as {prices: PriceOverride[]}).prices, "prices"), ids, what};
  return parse(
    text,
    file,
    PriceOverrideFile,
    "expected a mapping with prices: a list of {gpu, kind, usd_per_gpu_hour}",
    check
  ).prices;
}

/** Lowercase words of letters and digits: "NVIDIA A100-SXM4-80GB" → nvidia a100 sxm4 80gb. */
const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");

/** Words that make a different card of the same base name: "RTX 4060 Ti" is not an "RTX 4060". */
const VARIANT_WORDS = new Set(["ti", "super", "nvl", "laptop", "mobile", "max", "xt"]);

/**
 * Whether `part`'s words occur in `whole` as a run of whole words not followed by a variant word
 * ("NVIDIA L4" is not inside "NVIDIA L40", nor "RTX 4060" inside "RTX 4060 Ti").
 */
function containsWords(whole: readonly string[], part: readonly string[]): boolean {
  if (part.length === 0) return false;
  for (let i = 0; i + part.length <= whole.length; i++)
    if (part.every((w, j) => whole[i + j] === w) && !VARIANT_WORDS.has(whole[i + part.length] ?? "")) return true;
  return false;
}

/**
 * The catalogue card a tool's or an importer's GPU name stands for: the entry whose id, or the entry with the
 * longest of its `match` names, occurs in the name as whole words (case and punctuation ignored:
 * "H100-SXM-80GB" holds "H100 SXM"; ties go to the first in file order). Null when none does: the page then
 * says the card is not catalogued, never a near guess.
 */
export function matchCard(catalogue: GpuCatalogue, name: string | null | undefined): GpuEntry | null {
  if (name === null || name === undefined) return null;
  const n = words(name);
  if (n.length === 0) return null;
  const byId = catalogue.gpus.find((g) => words(g.id).join(" ") === n.join(" "));
  if (byId !== undefined) return byId;
  let best: {entry: GpuEntry; length: number} | null = null;
  for (const g of catalogue.gpus)
    for (const m of g.match) {
      const w = words(m);
      if (containsWords(n, w) && (best === null || w.length > best.length)) best = {entry: g, length: w.length};
    }
  return best?.entry ?? null;
}

/**
 * The ids in a run config's `hardware` block that the catalogue does not know: `hardware.gpu` (a card id) and
 * each `hardware.prices[i].gpu` (a card id or cpu-host), with their key paths. A price or card named wrong would
 * otherwise be ignored without a word, and the table's price or the tool's name used instead.
 */
export function unknownHardwareIds(
  hw: HardwareSpec | undefined,
  catalogue: GpuCatalogue
): {path: (string | number)[]; message: string}[] {
  if (hw === undefined) return [];
  const cards = new Set(catalogue.gpus.map((g) => g.id));
  const prices = priceIds(catalogue)!;
  const out: {path: (string | number)[]; message: string}[] = [];
  if (hw.gpu !== undefined && !cards.has(hw.gpu))
    out.push({path: ["hardware", "gpu"], message: `"${hw.gpu}" is not a catalogue id (configs/hardware/gpus.yaml)`});
  for (const [path, id] of pricePaths(hw.prices ?? [], "prices"))
    if (!prices.has(id))
      out.push({
        path: ["hardware", ...path],
        message: `"${id}" is not a catalogue id (configs/hardware/gpus.yaml) or cpu-host`
      });
  return out;
}
