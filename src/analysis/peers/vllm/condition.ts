import {isObject} from "../shared/parse.ts";
import {RUN_NUMBERS, STAT_KEY, type Flavor} from "./format.ts";

/**
 * What makes two vLLM or SGLang result objects one condition, so that they may be repeats of one load point:
 * besides the load (mode, value, burstiness, max concurrency: the point itself), the client backend, the
 * planned request count, the workload SGLang records, vLLM's ramp-up, and the parameters a `vllm bench sweep`
 * varied. Measured numbers, dates and run numbers are never part of it. The model is checked apart (one per
 * import, see `modelOf`).
 */
export interface Condition {
  /** Equal keys, equal condition. */
  key: string;
  /** The settings, sorted by name. */
  pairs: readonly (readonly [string, unknown])[];
}

const pairText = ([k, v]: readonly [string, unknown]): string => `${k} ${JSON.stringify(v)}`;

/** `dataset_name "sharegpt", sharegpt_output_len null`: the settings of a condition, less those in `omit`. */
export function conditionText(c: Condition, omit: ReadonlySet<string> = new Set()): string {
  const shown = c.pairs.filter((p) => !omit.has(pairText(p)));
  return shown.length ? shown.map(pairText).join(", ") : "no recorded settings";
}

/** The settings every one of the conditions has alike (`key value` texts). */
export function commonSettings(cs: readonly Condition[]): Set<string> {
  const [first, ...rest] = cs;
  if (!first) return new Set();
  return new Set(first.pairs.map(pairText).filter((t) => rest.every((c) => c.pairs.some((p) => pairText(p) === t))));
}

/** SGLang bench_serving's workload settings. A ShareGPT run still writes the random_* defaults, and so on. */
const SGLANG_WORKLOAD = {
  common: ["dataset_name"],
  random: ["random_input_len", "random_output_len", "random_range_ratio"],
  sharegpt: ["sharegpt_output_len", "sharegpt_context_len"],
  sharedPrefix: [
    "gsp_num_groups",
    "gsp_prompts_per_group",
    "gsp_system_prompt_len",
    "gsp_question_len",
    "gsp_output_len"
  ]
} as const;

/** The workload keys that matter for the run's dataset (all of them for a dataset not named here). */
function sglangWorkloadKeys(dataset: unknown): readonly string[] {
  const w = SGLANG_WORKLOAD;
  if (typeof dataset === "string" && dataset.startsWith("random")) return [...w.common, ...w.random];
  if (dataset === "sharegpt") return [...w.common, ...w.sharegpt];
  if (dataset === "generated-shared-prefix") return [...w.common, ...w.sharedPrefix];
  return [...w.common, ...w.random, ...w.sharegpt, ...w.sharedPrefix];
}

const CLIENT = ["backend", "endpoint_type", "num_prompts"];
const RAMP_UP = ["ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps"];

/**
 * Keys of a vLLM result that are not a swept parameter: the run's identity, its load (already the point's),
 * its model, and what it measured. In a sweep's result any other scalar key was added by the sweep (the
 * serve and bench overrides, e.g. max_num_seqs).
 */
const NOT_SWEPT = new Set([
  "date",
  "label",
  "model_id",
  "model",
  "tokenizer_id",
  "request_rate",
  "burstiness",
  "max_concurrency",
  "duration",
  "completed",
  "failed",
  "run_number",
  "best_of",
  "use_beam_search",
  "rtfx",
  ...CLIENT,
  ...RAMP_UP
]);
const MEASURED_PREFIX = /^(probe_|spec_decode_|diffusion_)/;

const scalar = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** The condition of one result object. */
export function conditionOf(flavor: Flavor, raw: Record<string, unknown>): Condition {
  const keys = [...CLIENT, ...RAMP_UP, ...(flavor === "sglang" ? sglangWorkloadKeys(raw.dataset_name) : [])];
  if (flavor === "vllm" && "run_number" in raw)
    for (const k of Object.keys(raw))
      if (!NOT_SWEPT.has(k) && !STAT_KEY.test(k) && !RUN_NUMBERS.has(k) && !MEASURED_PREFIX.test(k) && scalar(raw[k]))
        keys.push(k);
  const pairs = [...new Set(keys)]
    .filter((k) => k in raw && scalar(raw[k]))
    .sort()
    .map((k) => [k, raw[k]] as const);
  return {key: JSON.stringify(pairs), pairs};
}

/** The parts of an SGLang `server_info`: the server, or in prefill/decode disaggregation each of its servers. */
function serverParts(raw: Record<string, unknown>): {role: string; info: Record<string, unknown>}[] {
  const si = raw.server_info;
  if (!isObject(si)) return [];
  const out = [{role: "server", info: si}];
  for (const role of ["prefill", "decode"] as const) {
    const list = si[role];
    if (Array.isArray(list)) for (const info of list) if (isObject(info)) out.push({role, info});
  }
  return out;
}

const strings = (xs: readonly unknown[]): string[] => [
  ...new Set(xs.filter((x): x is string => typeof x === "string" && x !== ""))
];

/**
 * The model a result names: vLLM's model_id, else SGLang's model path from `server_info` (the server's own
 * settings, in disaggregation those of its prefill and decode servers), else null. Several paths: null.
 */
export function modelOf(raw: Record<string, unknown>): string | null {
  for (const k of ["model_id", "model"]) if (typeof raw[k] === "string" && raw[k] !== "") return raw[k];
  const paths = strings(
    serverParts(raw).flatMap(({info}) => [
      info.model_path,
      ...(Array.isArray(info.internal_states)
        ? info.internal_states.map((s) => (isObject(s) ? s.model_path : null))
        : [])
    ])
  );
  return paths.length === 1 ? paths[0]! : null;
}

/** SGLang server versions in `server_info`, by role (`server`, `prefill`, `decode`). */
export function serverVersions(raw: Record<string, unknown>): {role: string; version: string}[] {
  return serverParts(raw).flatMap(({role, info}) =>
    typeof info.version === "string" && info.version !== "" ? [{role, version: info.version}] : []
  );
}
