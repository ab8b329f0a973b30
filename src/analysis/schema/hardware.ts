import {z} from "zod";

/**
 * The hardware catalogue (configs/hardware/gpus.yaml), the engine support matrix (configs/hardware/engines.yaml)
 * and the price table (configs/hardware/prices.yaml). Data, not code: every filled value names the document it was
 * read from; a value no source states is absent, shown as "—" (never 0, never a guess).
 */

const SourceDate = z
  .string()
  .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, "expected YYYY, YYYY-MM or YYYY-MM-DD")
  .describe("publication date as the document prints it (year, month or day)");

export const SourceRef = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, "expected a source id: lowercase letters, digits and '-'")
  .describe("id of an entry in `sources`");

export const Source = z.strictObject({
  title: z.string().min(3).describe("the document's title as published"),
  publisher: z.string().min(2).describe("who published it (NVIDIA, AMD, a cloud provider, a project)"),
  date: SourceDate,
  url: z.url().optional().describe("where the document was read"),
  retrieved: SourceDate.optional().describe("when it was read, for pages that change (prices, docs)")
});
export type Source = z.infer<typeof Source>;

/** One sourced fact. `derivation` says how the value follows from the source when it is not printed as is. */
const sourced = <T extends z.ZodType>(value: T) =>
  z.strictObject({
    value,
    source: SourceRef,
    derivation: z
      .string()
      .min(3)
      .optional()
      .describe("how the value follows from the document, e.g. 'sparse figure halved, per its footnote'"),
    note: z.string().optional()
  });

export const SourcedNumber = sourced(z.number().nonnegative());
export const SourcedText = sourced(z.string().min(1));
export const SourcedFlag = sourced(z.boolean());
export type SourcedNumber = z.infer<typeof SourcedNumber>;
export type SourcedFlag = z.infer<typeof SourcedFlag>;

/** Number formats whose tensor-core throughput the catalogue records (dense, i.e. without 2:4 sparsity). */
export const NUMBER_FORMATS = ["fp64", "tf32", "fp16", "bf16", "fp8", "int8", "fp6", "fp4", "mxfp4"] as const;
export const NumberFormat = z.enum(NUMBER_FORMATS);
export type NumberFormat = z.infer<typeof NumberFormat>;

export const Vendor = z.enum(["nvidia", "amd"]);

export const GpuEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  vendor: Vendor,
  name: z.string().min(2).describe("the card as its vendor names it"),
  match: z
    .array(z.string().min(2))
    .min(1)
    .describe("case-insensitive substrings of the name nvidia-smi / amd-smi prints, most specific first"),
  architecture: SourcedText.optional(),
  form_factor: SourcedText.optional().describe("SXM, PCIe, OAM, superchip module…"),
  memory_gb: SourcedNumber.optional().describe("memory size as the vendor prints it, GB"),
  memory_type: SourcedText.optional(),
  memory_bandwidth_gbs: SourcedNumber.optional().describe("peak memory bandwidth, GB/s"),
  dense_tflops: z
    .partialRecord(NumberFormat, SourcedNumber)
    .default({})
    .describe("dense tensor throughput per number format, TFLOPS (TOPS for int8); never the sparse figure"),
  native_formats: z
    .partialRecord(NumberFormat, SourcedFlag)
    .default({})
    .describe("whether the tensor cores support the format natively (false is a sourced 'no')"),
  tdp_w: SourcedNumber.optional().describe("maximum board / module power, W"),
  nvlink: z
    .strictObject({
      generation: SourcedNumber.optional(),
      bandwidth_gbs: SourcedNumber.optional().describe("total NVLink / Infinity Fabric bandwidth per GPU, GB/s")
    })
    .optional(),
  pcie_generation: SourcedNumber.optional(),
  mig: SourcedText.optional().describe("multi-instance GPU: e.g. 'up to 7 instances', or 'no'"),
  notes: z.string().optional()
});
export type GpuEntry = z.infer<typeof GpuEntry>;

export const GpuCatalogue = z
  .strictObject({
    version: z.literal(1),
    updated: SourceDate.describe("when the catalogue was last checked against its sources"),
    sources: z.record(SourceRef, Source),
    gpus: z.array(GpuEntry).min(1)
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.gpus.forEach((g, i) => {
      if (seen.has(g.id)) ctx.addIssue({code: "custom", path: ["gpus", i, "id"], message: `duplicate id ${g.id}`});
      seen.add(g.id);
      for (const [path, ref] of sourceRefs(g)) checkSource(ctx, c.sources, ref, ["gpus", i, ...path]);
    });
  });
export type GpuCatalogue = z.output<typeof GpuCatalogue>;

/** One source reference of a data file: an issue at `path` when the file's `sources` do not define it. */
function checkSource(ctx: z.RefinementCtx, sources: Record<string, unknown>, ref: string, path: (string | number)[]) {
  if (!(ref in sources)) ctx.addIssue({code: "custom", path, message: `unknown source "${ref}"`});
}

/** Every `source` reference inside a value, with its path (for the unknown-source check). */
function sourceRefs(value: unknown, path: (string | number)[] = []): [(string | number)[], string][] {
  if (value === null || typeof value !== "object") return [];
  const out: [(string | number)[], string][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k === "source" && typeof v === "string") out.push([[...path, k], v]);
    else for (const ref of sourceRefs(v, [...path, k])) out.push(ref);
  }
  return out;
}

export const Support = z.enum(["yes", "no", "unknown"]);
export type Support = z.infer<typeof Support>;

/** Which serving engine supports a feature on which GPU architecture, per the engine's own documentation. */
export const EngineFeature = z.strictObject({
  engine: z.string().min(1).describe("vllm, sglang, llama.cpp, tgi…"),
  version: z.string().min(1).describe("the engine version the documentation describes"),
  feature: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
  label: z.string().min(2).describe("what the feature is, in words"),
  source: SourceRef,
  by_architecture: z
    .record(z.string().min(2), Support)
    .describe("architecture (as the GPU catalogue names it) → yes / no / unknown; an absent one is unknown"),
  note: z.string().optional()
});
export type EngineFeature = z.infer<typeof EngineFeature>;

export const EngineMatrix = z
  .strictObject({
    version: z.literal(1),
    updated: SourceDate,
    sources: z.record(SourceRef, Source),
    features: z.array(EngineFeature)
  })
  .superRefine((m, ctx) =>
    m.features.forEach((f, i) => checkSource(ctx, m.sources, f.source, ["features", i, "source"]))
  );
export type EngineMatrix = z.output<typeof EngineMatrix>;

export const PriceKind = z.enum(["on_demand", "reserved", "owned"]);
export type PriceKind = z.infer<typeof PriceKind>;

export const PriceRow = z.strictObject({
  gpu: z.string().describe("a GPU catalogue id"),
  kind: PriceKind,
  usd_per_gpu_hour: z.number().positive(),
  provider: z.string().min(1).describe("cloud provider, or 'owned'"),
  source: SourceRef.optional().describe("absent only for the user's own prices (an override)"),
  derivation: z.string().optional().describe("e.g. 'instance price ÷ 8 GPUs'"),
  note: z.string().optional()
});
export type PriceRow = z.infer<typeof PriceRow>;

export const PriceTable = z
  .strictObject({
    version: z.literal(1),
    date: SourceDate.describe("when these prices were read; prices change, the page says how old they are"),
    currency: z.literal("USD"),
    sources: z.record(SourceRef, Source),
    prices: z.array(PriceRow)
  })
  .superRefine((t, ctx) =>
    t.prices.forEach((p, i) => {
      if (p.source === undefined)
        ctx.addIssue({code: "custom", path: ["prices", i, "source"], message: "a shipped price needs its source"});
      else checkSource(ctx, t.sources, p.source, ["prices", i, "source"]);
    })
  );
export type PriceTable = z.output<typeof PriceTable>;

/** The user's own prices (run config `cost:` block, or the build's INFERSCOPE_PRICES file): they override the table. */
export const PriceOverride = z.strictObject({
  gpu: z.string().describe("a GPU catalogue id, or 'cpu-host' for a CPU-only host"),
  kind: PriceKind.default("owned"),
  usd_per_gpu_hour: z.number().positive().describe("per GPU (per host for cpu-host), USD per hour"),
  note: z.string().optional()
});
export type PriceOverride = z.infer<typeof PriceOverride>;

/** KV-cache element types and their bytes per element (ggml block types include their scales). */
export const KV_DTYPE_BYTES = {
  f32: 4,
  f16: 2,
  bf16: 2,
  fp8: 1,
  fp8_e4m3: 1,
  fp8_e5m2: 1,
  q8_0: 34 / 32,
  q5_1: 24 / 32,
  q5_0: 22 / 32,
  q4_1: 20 / 32,
  q4_0: 18 / 32,
  iq4_nl: 18 / 32
} as const;
export const KvDtype = z.enum(Object.keys(KV_DTYPE_BYTES) as [keyof typeof KV_DTYPE_BYTES]);
export type KvDtype = z.infer<typeof KvDtype>;

/** Model facts the run config states, for engines whose model file the collector cannot read (a config block). */
export const ModelFactsSpec = z.strictObject({
  params: z.number().positive().optional().describe("parameters (all of them; for MoE also set active_params)"),
  active_params: z.number().positive().optional().describe("parameters used per token (MoE)"),
  weight_bytes: z.number().positive().optional().describe("bytes of the weights as loaded"),
  bytes_per_weight: z.number().positive().optional().describe("when weight_bytes is not known: e.g. 2 for BF16"),
  layers: z.number().int().positive().optional().describe("transformer layers (blocks)"),
  kv_heads: z.number().int().positive().optional().describe("key/value heads per layer (grouped-query attention)"),
  head_dim: z.number().int().positive().optional().describe("dimension of one attention head"),
  kv_cache_dtype: KvDtype.optional().describe("the KV cache's element type (f16 unless the server was told otherwise)")
});
export type ModelFactsSpec = z.infer<typeof ModelFactsSpec>;

export const HardwareSpec = z
  .strictObject({
    gpu: z.string().optional().describe("the GPU catalogue id of this host's card, when its tool name does not match"),
    gpu_count: z.number().int().positive().optional().describe("GPUs serving the model (default: all listed)"),
    model: ModelFactsSpec.optional().describe(
      "model facts for memory fit and the roofline, when the collector cannot read the model file (non-GGUF engines)"
    ),
    prices: z.array(PriceOverride).optional().describe("your own prices: they override the shipped price table")
  })
  .describe("hardware facts the collector cannot read, and your own prices");
export type HardwareSpec = z.infer<typeof HardwareSpec>;

/** A build's own price file (INFERSCOPE_PRICES=path): a list of prices that override the shipped table. */
export const PriceOverrideFile = z.strictObject({prices: z.array(PriceOverride).min(1)});
