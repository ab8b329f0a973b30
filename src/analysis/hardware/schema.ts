import {z} from "zod";

/**
 * The `hardware` block of a Report (present when the analysis is given the hardware data): the host as
 * measured, the model's facts, memory fit, the decode roofline, cost and energy per load point. Every
 * number is null with a reason when what it rests on is unknown.
 */

export const Fact = z
  .strictObject({
    value: z.number().nullable(),
    from: z.string().nullable().describe("where the value comes from (a header key, a config key, a measurement)"),
    reason: z.string().nullable().describe("why the value is unknown")
  })
  .describe("a number with its origin, or null with the reason");
export type Fact = z.infer<typeof Fact>;

export const TextFact = z.strictObject({
  value: z.string().nullable(),
  from: z.string().nullable(),
  reason: z.string().nullable()
});
export type TextFact = z.infer<typeof TextFact>;

export const P2pStatus = z.enum(["ok", "not_supported", "mixed", "single_gpu", "unknown"]);

export const HostGpu = z.strictObject({
  index: z.number().int(),
  name: z.string(),
  uuid: z.string().nullable(),
  memoryMiB: z.number().nullable(),
  powerLimitW: z.number().nullable(),
  smClockMaxMHz: z.number().nullable(),
  memClockMaxMHz: z.number().nullable(),
  catalogueId: z.string().nullable().describe("the catalogue card this name matched, or null")
});

export const MeasuredHost = z.strictObject({
  kind: z.enum(["gpu", "cpu", "declared", "unknown"]).describe("declared: an import's --hardware, not measured"),
  gpus: z.array(HostGpu),
  gpuTool: z.string().nullable(),
  gpuReason: z.string().nullable().describe("why no GPU is listed"),
  driver: z.string().nullable(),
  cuda: z.string().nullable(),
  topology: z.string().nullable().describe("raw `nvidia-smi topo -m`"),
  p2p: z.strictObject({status: P2pStatus, reason: z.string(), raw: z.string().nullable()}),
  cpu: z.strictObject({
    model: z.string().nullable(),
    threads: z.number().nullable(),
    memoryBytes: z.number().nullable()
  }),
  hostBandwidthGBs: Fact.describe("host memory bandwidth, GB/s: the best of the fingerprint's parallel-copy passes"),
  card: z.string().nullable().describe("catalogue id of the card serving the model, when one matched"),
  cardName: z.string().nullable(),
  gpuCount: Fact.describe("GPUs serving the model")
});
export type MeasuredHost = z.infer<typeof MeasuredHost>;

export const ModelFacts = z.strictObject({
  name: z.string().nullable(),
  architecture: z.string().nullable(),
  params: Fact,
  activeParams: Fact.describe("parameters read per token (MoE: the active ones)"),
  weightBytes: Fact,
  layers: Fact,
  kvHeads: Fact,
  headDimK: Fact,
  headDimV: Fact,
  kvBytesPerElement: Fact.describe("bytes per KV-cache element (mean of K and V when they differ)"),
  kvBytesPerToken: Fact.describe("2 × layers × kv_heads × head_dim × bytes per element (K and V)"),
  experts: z.number().nullable().describe("expert count of a mixture-of-experts model, when the header says")
});
export type ModelFacts = z.infer<typeof ModelFacts>;

export const FitRow = z.strictObject({
  context: z.number(),
  concurrency: z.number(),
  weightsBytes: z.number().nullable(),
  kvBytes: z.number().nullable(),
  totalBytes: z.number().nullable(),
  capacityBytes: z.number().nullable(),
  fits: z.enum(["yes", "no", "unknown"]),
  headroomPct: z.number().nullable().describe("(capacity − total) / capacity × 100"),
  reason: z.string().nullable()
});
export type FitRow = z.infer<typeof FitRow>;

export const MemoryFit = z.strictObject({
  capacity: Fact.describe(
    "bytes the model may use: the GPUs' memory (measured, else the catalogue's), or the host's RAM"
  ),
  run: FitRow.nullable().describe("at this run's largest request context × its largest concurrency"),
  server: z
    .strictObject({
      kvUsagePeak: Fact.describe("the server's KV-cache usage, peak over the run, 0–1"),
      preemptions: Fact.describe("requests the server preempted during the run (counter delta)")
    })
    .describe("what the server itself reported on /metrics")
});

export const PointHardware = z.strictObject({
  point: z.string(),
  batch: Fact.describe("measured mean requests in flight (the batch the bound is taken at)"),
  contextTokens: Fact.describe("mean tokens in a sequence's KV cache while it decodes: prompt + half the output"),
  boundTokS: Fact.describe("decode upper bound per sequence at that batch and context, tok/s"),
  measuredTokS: Fact.describe("measured median decode t/s per request (decode_tok_s p50)"),
  fraction: Fact.describe("measured ÷ bound"),
  fractionNote: z
    .string()
    .nullable()
    .describe("when measured exceeds the bound: what that means (the bound's assumptions do not hold)"),
  cost: z.strictObject({
    price: Fact.describe("USD per GPU-hour used"),
    priceFrom: z.string().nullable(),
    gpuHours: Fact,
    perRequest: Fact.describe("USD per successful request"),
    perMOutput: Fact.describe("USD per million output tokens"),
    perMInput: Fact.describe("USD per million prompt tokens, hits and misses together"),
    perMInputMiss: Fact.describe("USD per million prompt tokens the server computed (prompt-cache misses)"),
    perMInputHit: Fact.describe("USD per million prompt tokens served from the prompt cache"),
    inputShare: Fact.describe("share of the GPU time attributed to prefill (see methodology)")
  }),
  energy: z.strictObject({
    joules: Fact,
    joulesPerOutputToken: Fact,
    tokensPerKWh: Fact,
    samples: z.number().int().nonnegative(),
    sparse: z.boolean().describe("fewer samples than the rule needs to trust the integral"),
    reason: z.string().nullable()
  })
});
export type PointHardware = z.infer<typeof PointHardware>;

export const HardwareReport = z.strictObject({
  host: MeasuredHost,
  model: ModelFacts,
  bandwidth: Fact.describe("memory bandwidth the roofline uses, GB/s (all serving GPUs, or the host's measured)"),
  bandwidthFrom: z.string().nullable(),
  fit: MemoryFit,
  points: z.array(PointHardware)
});
export type HardwareReport = z.infer<typeof HardwareReport>;
