import type {RunConfig} from "../schema/config.ts";
import {KV_DTYPE_BYTES, type KvDtype, type ModelFactsSpec} from "../schema/hardware.ts";
import type {Environment} from "../schema/manifest.ts";
import {combine, firstKnown, known, unknown} from "./fact.ts";
import type {Fact, ModelFacts} from "./schema.ts";

/**
 * A model's facts for memory fit and the roofline, each from the first place that states it: the run
 * config's `hardware.model` block, the model file's header (GGUF, read at the fingerprint), the server's
 * /v1/models metadata (llama.cpp). A fact none of them states is unknown, never a typical value.
 */
export function modelFacts(env: Environment | null, config: RunConfig | null): ModelFacts {
  const spec: ModelFactsSpec = config?.hardware?.model ?? {};
  const file = env?.model?.file ?? null;
  const meta = file?.metadata ?? {};
  const arch = typeof meta["general.architecture"] === "string" ? meta["general.architecture"] : null;
  const noFile =
    env?.model?.reason ??
    (env?.model === undefined ? "the bundle predates the model-file fingerprint" : "no model file read");
  const header = (key: string): Fact => {
    if (file === null) return unknown(`model file header not read: ${noFile}`);
    const k = arch === null ? key : `${arch}.${key}`;
    const v = meta[k];
    if (typeof v === "number" && Number.isFinite(v)) return known(v, `GGUF header ${k}`);
    return unknown(v === undefined ? `GGUF header has no ${k}` : `GGUF header ${k} is ${String(v)}, not one number`);
  };
  const cfg = (key: keyof ModelFactsSpec): Fact => {
    const v = spec[key];
    return typeof v === "number"
      ? known(v, `run config hardware.model.${key}`)
      : unknown(`hardware.model.${key} not set`);
  };
  const served = servedMeta(env);
  const tensorElements = file === null ? null : Object.values(file.tensorTypes).reduce((n, t) => n + t.elements, 0);
  const params = firstKnown(
    cfg("params"),
    tensorElements === null || tensorElements === 0
      ? unknown(`model file header not read: ${noFile}`)
      : known(tensorElements, "GGUF tensor shapes (Σ elements)"),
    served.params
  );
  const experts = typeof meta[`${arch}.expert_count`] === "number" ? (meta[`${arch}.expert_count`] as number) : null;
  const activeParams = firstKnown(
    cfg("active_params"),
    experts !== null && experts > 0
      ? unknown(
          `mixture of experts (${experts} experts): the parameters read per token depend on routing; set hardware.model.active_params`
        )
      : params
  );
  const weightBytes = firstKnown(
    cfg("weight_bytes"),
    file?.tensorDataBytes == null
      ? unknown(`model file header not read: ${noFile}`)
      : known(file.tensorDataBytes, "GGUF file size minus header"),
    served.size,
    spec.bytes_per_weight === undefined
      ? unknown("weight bytes not stated (hardware.model.weight_bytes or bytes_per_weight)")
      : combine([params], (p) => p * spec.bytes_per_weight!, "params × hardware.model.bytes_per_weight")
  );
  const {layers, kvHeads, headDimK, headDimV} = attentionFacts(
    cfg,
    header,
    file !== null && meta[arch === null ? "attention.head_count_kv" : `${arch}.attention.head_count_kv`] === undefined
  );
  const kvBytesPerElement = kvElementBytes(env, spec.kv_cache_dtype);
  const kvBytesPerToken = combine(
    [layers, kvHeads, headDimK, headDimV, kvBytesPerElement],
    (l, h, dk, dv, b) => l * h * (dk + dv) * b,
    "layers × kv_heads × (head_dim K + V) × bytes per element"
  );
  return {
    name: served.name,
    architecture: arch,
    params,
    activeParams,
    weightBytes,
    layers,
    kvHeads,
    headDimK,
    headDimV,
    kvBytesPerElement,
    kvBytesPerToken,
    experts
  };
}

type Lookup = (key: string) => Fact;

/** Layers, KV heads and head dimensions: the config's, else the GGUF header's (`kvAbsent`: no head_count_kv key). */
function attentionFacts(cfg: (key: keyof ModelFactsSpec) => Fact, header: Lookup, kvAbsent: boolean) {
  const layers = firstKnown(cfg("layers"), header("block_count"));
  // GGUF: an absent head_count_kv means head_count (no grouped-query attention); present but not one number is unknown
  const kvHeads = firstKnown(
    cfg("kv_heads"),
    kvAbsent ? header("attention.head_count") : header("attention.head_count_kv")
  );
  const derivedDim = combine(
    [header("embedding_length"), header("attention.head_count")],
    (e, h) => (h > 0 ? e / h : null),
    "embedding_length ÷ head_count"
  );
  const headDimK = firstKnown(cfg("head_dim"), header("attention.key_length"), derivedDim);
  const headDimV = firstKnown(cfg("head_dim"), header("attention.value_length"), derivedDim);
  return {layers, kvHeads, headDimK, headDimV};
}

/** llama.cpp's /v1/models `meta` (n_params, size) of the served model. */
function servedMeta(env: Environment | null): {name: string | null; params: Fact; size: Fact} {
  const data = (env?.server.models as {data?: unknown} | null | undefined)?.data;
  const first = Array.isArray(data)
    ? (data[0] as {id?: unknown; meta?: Record<string, unknown>} | undefined)
    : undefined;
  const meta = first?.meta ?? {};
  const num = (k: string, what: string): Fact =>
    typeof meta[k] === "number" && (meta[k] as number) > 0
      ? known(meta[k] as number, `server /v1/models meta.${k}`)
      : unknown(`the server's /v1/models does not state ${what}`);
  return {
    name: typeof first?.id === "string" ? first.id : null,
    params: num("n_params", "the parameter count"),
    size: num("size", "the weight size")
  };
}

const LLAMA_K = ["-ctk", "--cache-type-k"];
const LLAMA_V = ["-ctv", "--cache-type-v"];

/** The KV cache's bytes per element: the config's dtype, the launch arguments, or the engine's documented default. */
function kvElementBytes(env: Environment | null, configured: KvDtype | undefined): Fact {
  if (configured !== undefined)
    return known(KV_DTYPE_BYTES[configured], `run config hardware.model.kv_cache_dtype ${configured}`);
  const args = env?.server.launchArgs ?? null;
  const engine = env?.server.engine ?? null;
  const arg = (names: string[]): string | null => {
    if (args === null) return null;
    const i = args.findIndex((a) => names.includes(a));
    return i >= 0 ? (args[i + 1] ?? null) : null;
  };
  const bytes = (t: string | null): number | null =>
    t !== null && t in KV_DTYPE_BYTES ? KV_DTYPE_BYTES[t as KvDtype] : null;
  if (engine === "llama.cpp") {
    if (args === null)
      return unknown("llama.cpp launch arguments not recorded: the KV-cache type (-ctk/-ctv) is unknown");
    const k = arg(LLAMA_K) ?? "f16";
    const v = arg(LLAMA_V) ?? "f16";
    const bk = bytes(k);
    const bv = bytes(v);
    if (bk === null || bv === null)
      return unknown(`KV-cache type ${bk === null ? k : v} not in the table of element sizes`);
    const dflt = arg(LLAMA_K) === null && arg(LLAMA_V) === null;
    return known(
      (bk + bv) / 2,
      dflt
        ? "llama.cpp default KV cache f16 (no -ctk/-ctv in the launch arguments)"
        : `launch arguments -ctk ${k} -ctv ${v}`
    );
  }
  const vllm = arg(["--kv-cache-dtype"]);
  if (vllm !== null && vllm !== "auto") {
    const b = bytes(vllm.startsWith("fp8") ? "fp8" : vllm);
    if (b !== null) return known(b, `launch argument --kv-cache-dtype ${vllm}`);
  }
  return unknown("KV-cache element type not stated: set hardware.model.kv_cache_dtype");
}
