import type {LoadPoint} from "../../schema/manifest.ts";
import {loadPoint, unknownPoint} from "../shared/build.ts";
import {isObject} from "../shared/parse.ts";

/**
 * What the summary's `input_config` says about the run: GenAI-Perf writes its whole configuration there
 * (json_exporter.py: `config.to_json_dict()`), in one of two layouts.
 *
 * - flat (the argparse flags, until early 2025): `concurrency`, `request_rate` (exclusive; the parser sets
 *   concurrency 1 when neither is given), `model: [names]`;
 * - nested (the config-file rewrite, 2025): `perf_analyzer.stimulus`, a one-key object
 *   `{concurrency | request_rate | session_concurrency | fixed_schedule: value}` (config_perf_analyzer.py;
 *   default `{concurrency: 1}`, which is also perf_analyzer's own default), `model_names: [names]`.
 *   perf_analyzer_config.py turns `concurrency` into `--concurrency-range N` and `request_rate` into
 *   `--request-rate-range R` (constant arrivals). The `analyze` subcommand sweeps the load through its own
 *   parameters and leaves the template's stimulus in every run's config, so there it says nothing.
 */
export interface StatedLoad {
  point: LoadPoint | null;
  /** Why the load is unknown, when the config has one but it is not a load point. */
  note?: string;
}

const positive = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);

function fromPair(concurrency: unknown, rate: unknown): LoadPoint | null {
  const c = positive(concurrency);
  if (c !== null) return loadPoint("concurrency", c);
  const r = positive(rate);
  return r === null ? null : loadPoint("rate", r);
}

/** The load point the config states, or null with the reason when it states none that we can use. */
export function statedLoad(cfg: Record<string, unknown>): StatedLoad {
  const pa = isObject(cfg.perf_analyzer) ? cfg.perf_analyzer : null;
  if (pa === null) return {point: fromPair(cfg.concurrency, cfg.request_rate)};
  if (cfg.subcommand === "analyze")
    return {
      point: null,
      note: "written by genai-perf analyze: input_config keeps the sweep template's stimulus, not this run's load"
    };
  const stimulus = isObject(pa.stimulus) ? pa.stimulus : {};
  const point = fromPair(stimulus.concurrency, stimulus.request_rate);
  if (point) return {point};
  const kind = Object.keys(stimulus)[0];
  return {
    point: null,
    note:
      kind === undefined
        ? "input_config.perf_analyzer.stimulus is empty"
        : `input_config.perf_analyzer.stimulus is ${kind}${stimulus[kind] == null ? "" : ` ${String(stimulus[kind])}`}: not a request concurrency or rate`
  };
}

/** The load point of a summary imported without its export; a note joins `notes` when the config states none. */
export function summaryPoint(cfg: Record<string, unknown>, notes: string[]): LoadPoint {
  const stated = statedLoad(cfg);
  if (stated.point) return stated.point;
  notes.push(`the summary states no load${stated.note ? ` (${stated.note})` : ""}: the load point is unknown`);
  return unknownPoint();
}

/** The model the config names (flat `model`, nested `model_names`), when it names exactly one. */
export function statedModel(cfg: Record<string, unknown>): string | null {
  const names = Array.isArray(cfg.model_names) ? cfg.model_names : Array.isArray(cfg.model) ? cfg.model : null;
  return names?.length === 1 && typeof names[0] === "string" ? names[0] : null;
}
