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

type ClientApi = "completions" | "chat" | "other";

/**
 * The API each of vLLM's benchmark client backends calls (`--backend`, written as `backend` and, for backward
 * compatibility, `endpoint_type`): ASYNC_REQUEST_FUNCS of `benchmarks/backend_request_func.py` (2024–2025) and
 * of `vllm/benchmarks/lib/endpoint_request_func.py` (`vllm bench serve`). completions:
 * async_request_openai_completions (/v1/completions); chat: async_request_openai_chat_completions
 * (/v1/chat/completions); other: a client of another API (TGI, TensorRT-LLM, DeepSpeed-MII, audio, embeddings,
 * rerank). A name not listed is unknown.
 */
const VLLM_BACKEND_API: Readonly<Record<string, ClientApi>> = {
  vllm: "completions",
  openai: "completions",
  lmdeploy: "completions",
  scalellm: "completions",
  sglang: "completions",
  "llama.cpp": "completions",
  "openai-chat": "chat",
  tgi: "other",
  "deepspeed-mii": "other",
  "tensorrt-llm": "other",
  "openai-audio": "other",
  "openai-embeddings": "other",
  "openai-embeddings-chat": "other",
  "openai-embeddings-clip": "other",
  "openai-embeddings-vlm2vec": "other",
  "infinity-embeddings": "other",
  "infinity-embeddings-clip": "other",
  "vllm-rerank": "other"
};

/**
 * The same for SGLang's `bench_serving.py` backends. `sglang` itself is left unknown: the 2024 client sent it to
 * /v1/completions, later ones to the native /generate (async_request_sglang_generate).
 */
const SGLANG_BACKEND_API: Readonly<Record<string, ClientApi>> = {
  "sglang-oai": "completions",
  vllm: "completions",
  lmdeploy: "completions",
  "sglang-oai-chat": "chat",
  "vllm-chat": "chat",
  "lmdeploy-chat": "chat",
  "sglang-native": "other",
  trt: "other",
  gserver: "other",
  truss: "other"
};

/**
 * The API a result's client called, from its backend name (`endpoint_type`, `backend`) in its tool's table;
 * undefined when neither names a known backend, or the two name different APIs.
 */
export function clientApiOf(flavor: Flavor, raw: Record<string, unknown>): ClientApi | undefined {
  const table = flavor === "vllm" ? VLLM_BACKEND_API : SGLANG_BACKEND_API;
  const apis = new Set(
    [raw.endpoint_type, raw.backend].filter((b) => typeof b === "string").map((b) => table[b as string])
  );
  return apis.size === 1 ? [...apis][0] : undefined;
}

/**
 * Whether a vLLM result may have been measured with the chat client (vLLM issue #15106: its first "token" may be
 * the role-only chunk): yes for openai-chat and for an unknown backend; no for a completions or other client.
 */
export const vllmMaybeChatRun = (raw: Record<string, unknown>): boolean => {
  const api = clientApiOf("vllm", raw);
  return api === undefined || api === "chat";
};

/** A finite number of the file, else null. */
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The output-token total's key: `total_output_tokens` (vLLM, SGLang bench_serving.py) or `total_output`. */
export const outputKey = (agg: Record<string, unknown>): string =>
  "total_output_tokens" in agg ? "total_output_tokens" : "total_output";

/**
 * SGLang's re-tokenized output count under the key `bench_serving.py` writes (`total_output_tokens_retokenized`),
 * else the BenchmarkMetrics field name some of SGLang's other benchmark scripts write as the key.
 */
const RETOKENIZED_KEYS = ["total_output_tokens_retokenized", "total_output_retokenized"] as const;

/** The relative gap between SGLang's output-token total and its re-tokenized count that puts the total in doubt. */
const RETOKENIZED_GAP = 0.02;

/** SGLang's output-token total set against its client's re-tokenization of the generated text. */
export interface RetokenizedGap {
  /** `total_output_tokens` (bench_serving.py) or `total_output`. */
  outKey: string;
  /** The re-tokenized count's key (RETOKENIZED_KEYS). */
  key: string;
  total: number;
  retokenized: number;
  /** |total − retokenized| / max(total, retokenized). */
  share: number;
  /** One line: the two counts and what rests on them. */
  note: string;
}

/**
 * Where SGLang's output-token total (server usage, else the requested length) and its own re-tokenization of the
 * generated text differ by more than 2 %: the total — and every rate or per-token time divided by it — is in
 * doubt (usage_source uncertain). Null when they agree or either count is missing.
 */
export function sglangRetokenizedGap(agg: Record<string, unknown>): RetokenizedGap | null {
  const outKey = outputKey(agg);
  const key = RETOKENIZED_KEYS.find((k) => num(agg[k]) !== null);
  const total = num(agg[outKey]);
  if (key === undefined || total === null) return null;
  const retokenized = num(agg[key])!;
  const share = Math.abs(total - retokenized) / Math.max(total, retokenized);
  if (!(share > RETOKENIZED_GAP)) return null;
  const pct = `${(share * 100).toPrecision(3)} %`;
  return {
    outKey,
    key,
    total,
    retokenized,
    share,
    note: `usage_source uncertain: SGLang's ${outKey} (${total}) and its re-tokenized count of the generated text ${key} (${retokenized}) differ by ${pct} (more than 2 %): its output-token count — server usage, else the requested length — is not what the generated text holds, and output_throughput is divided from it`
  };
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
