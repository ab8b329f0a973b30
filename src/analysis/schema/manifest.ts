import {z} from "zod";

import {HttpClient, LoadMode} from "./config.ts";
import {BundlePath, DecimalNs, IsoTime, NonNegInt, RelNs, Sha256, Slug} from "./primitives.ts";
import {MergeFacts, ShardIdentity} from "./shard.ts";
import {WorkloadFacts} from "./workload.ts";

export const BundleStatus = z
  .enum(["complete", "interrupted", "partial"])
  .describe(
    "complete = ran to the end; interrupted = stopped by the user or a signal; partial = sealed after a crash or with data missing"
  );

export const FileRole = z.enum([
  "config",
  "requests",
  "schedule",
  "client_metrics",
  "server_metrics",
  "gpu_metrics",
  "quality",
  "source",
  "attachment"
]);
export type FileRole = z.infer<typeof FileRole>;

export const FileEntry = z.strictObject({
  path: BundlePath,
  role: FileRole,
  bytes: NonNegInt.describe("file size in bytes"),
  sha256: Sha256,
  records: NonNegInt.nullable().describe("number of JSONL records (null for non-JSONL files)")
});
export type FileEntry = z.infer<typeof FileEntry>;

export const GpuInfo = z.strictObject({
  index: NonNegInt,
  name: z.string(),
  uuid: z.string().nullable(),
  memoryTotalMiB: z.number().nullable(),
  powerLimitW: z.number().nullable(),
  computeCapability: z.string().nullable(),
  vendor: z.enum(["nvidia", "amd"]).optional().describe("absent in bundles before issue 15: nvidia"),
  clocks: z
    .strictObject({
      smMHz: z.number().nullable(),
      memMHz: z.number().nullable(),
      smMaxMHz: z.number().nullable(),
      memMaxMHz: z.number().nullable()
    })
    .optional()
    .describe("clocks at the fingerprint and their maxima, MHz, as the tool printed them"),
  pcie: z.strictObject({generation: z.number().nullable(), width: z.number().nullable()}).optional(),
  powerMaxW: z.number().nullable().optional().describe("the largest power limit the board allows, W")
});

/** Host memory bandwidth as the fingerprint measured it: raw timings of parallel copies, the analyzer derives GB/s. */
export const MemoryBandwidthProbe = z.strictObject({
  method: z.literal("parallel-copy").describe("each worker thread copies its own buffer (a read and a write per byte)"),
  threads: NonNegInt.describe("worker threads copying at once"),
  bufferBytes: NonNegInt.describe("bytes each thread copies per pass"),
  trials: z
    .array(z.strictObject({bytesMoved: NonNegInt.describe("read + written, all threads"), ns: NonNegInt}))
    .describe("one entry per timed pass of all threads together (wall time from the first start to the last end)"),
  error: z.string().nullable().describe("why it could not be measured (then trials is empty)"),
  reusedFrom: z
    .strictObject({
      measuredAt: IsoTime.describe("when the probe ran"),
      bootId: z.string().min(1).describe("the Linux boot it ran in (/proc/sys/kernel/random/boot_id)")
    })
    .nullable()
    .optional()
    .describe(
      "set when these trials are an earlier run's on the same host and boot (the collector keeps one probe per boot: memory does not change without a reboot); null or absent: measured by this run"
    )
});
export type MemoryBandwidthProbe = z.infer<typeof MemoryBandwidthProbe>;

const GgufScalarValue = z.union([z.string(), z.number(), z.boolean()]);

/** What the model file says about itself, read from its header at the fingerprint (never the weights). */
export const ModelFileFacts = z.strictObject({
  format: z.literal("gguf"),
  path: z.string().describe("the file read (from the server's /props model_path or the run config)"),
  fileBytes: NonNegInt,
  tensorDataBytes: NonNegInt.nullable().describe("file size minus the header: the weights as stored"),
  metadata: z
    .record(z.string(), GgufScalarValue)
    .describe("the header's scalar key/values (arrays are summarized as '<array of N type>')"),
  tensorTypes: z
    .record(z.string(), z.strictObject({tensors: NonNegInt, elements: NonNegInt}))
    .describe("tensors and elements per ggml type")
});
export type ModelFileFacts = z.infer<typeof ModelFileFacts>;

export const ModelProbe = z.strictObject({
  file: ModelFileFacts.nullable(),
  reason: z.string().nullable().describe("why the file was not read (remote server, no path, unreadable)")
});
export type ModelProbe = z.infer<typeof ModelProbe>;

export const Availability = z.strictObject({
  available: z.boolean(),
  reason: z.string().nullable().describe("why it is unavailable or partial; null when available")
});

export const Environment = z
  .strictObject({
    host: z.strictObject({
      os: z.string().nullable().describe("operating system and release"),
      arch: z.string().nullable(),
      cpuModel: z.string().nullable(),
      cpuCount: NonNegInt.nullable(),
      memoryBytes: NonNegInt.nullable(),
      hostname: z.string().nullable().describe("host name (may be replaced by a label)"),
      memoryBandwidth: MemoryBandwidthProbe.optional().describe("absent before issue 15")
    }),
    gpu: Availability.extend({
      devices: z.array(GpuInfo),
      driverVersion: z.string().nullable(),
      cudaVersion: z.string().nullable(),
      topology: z.string().nullable().describe("raw `nvidia-smi topo -m` output"),
      tool: z.enum(["nvidia-smi", "amd-smi", "rocm-smi"]).nullable().optional().describe("which tool listed the GPUs"),
      p2p: z
        .strictObject({raw: z.string().nullable(), error: z.string().nullable()})
        .optional()
        .describe("raw `nvidia-smi topo -p2p r` (peer-to-peer read status per GPU pair)"),
      raw: z.string().nullable().optional().describe("the AMD tool's raw JSON answer, when it listed the GPUs")
    }),
    server: z.strictObject({
      baseUrl: z.string().nullable().describe("base URL with credentials and query tokens redacted"),
      engine: z.string().nullable().describe("engine label, e.g. vllm, sglang, llama.cpp"),
      engineVersion: z.string().nullable(),
      models: z.unknown().describe("raw /v1/models response, redacted, or null"),
      version: z.unknown().describe("raw version endpoint response, or null"),
      launchArgs: z.array(z.string()).nullable(),
      imageDigest: z.string().nullable(),
      gpus: z.number().int().positive().nullable().describe("GPUs serving the model, when known"),
      capabilities: z
        .record(z.string(), z.unknown())
        .describe("probed capabilities: streaming, usage in stream, /metrics…")
    }),
    model: ModelProbe.optional().describe("the model file's header facts; absent before issue 15"),
    runtime: z.strictObject({
      node: z.string().nullable(),
      platform: z.string().nullable()
    }),
    extra: z.record(z.string(), z.unknown()).describe("further allowlisted facts (redacted)")
  })
  .describe("environment fingerprint, captured from an allowlist with secrets redacted");
export type Environment = z.infer<typeof Environment>;

/**
 * What whoever imported a file declared that the file does not say (`inferscope import --hardware
 * gpu_model=…,gpu_count=… --engine name@version --label k=v`): shown as declared, never as measured.
 */
export const Declared = z.strictObject({
  hardware: z
    .strictObject({
      gpu_model: z.string().min(1).describe("accelerator model, as the importer names it (e.g. H100-SXM-80GB)"),
      gpu_count: z.number().int().positive().describe("accelerators serving the model")
    })
    .optional(),
  engine: z.strictObject({name: z.string().min(1), version: z.string().min(1).nullable()}).optional(),
  labels: z.record(z.string(), z.string()).optional()
});
export type Declared = z.infer<typeof Declared>;

export const Provenance = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("collected"),
    note: z.string().optional()
  }),
  z.strictObject({
    kind: z.literal("imported"),
    tool: z.string().describe("source tool, e.g. vllm, sglang, genai-perf, aiperf, guidellm, llmperf, inferscope-v1"),
    toolVersion: z.string().nullable(),
    files: z.array(z.strictObject({name: z.string(), sha256: Sha256, bytes: NonNegInt})).min(1),
    note: z.string().optional(),
    declared: Declared.optional().describe("values the importer declared (not in the source files)")
  }),
  z.strictObject({
    kind: z.literal("synthetic"),
    note: z.string().describe("how the bundle was made (hand-built fixture, generated benchmark input…)")
  })
]);
export type Provenance = z.infer<typeof Provenance>;

export const LoadPoint = z.strictObject({
  id: Slug.describe("stable id used in request records and URLs, e.g. concurrency-4"),
  mode: LoadMode,
  value: z.number().positive().describe("concurrency (requests in flight) or target rate (req/s)"),
  repeats: z.number().int().positive(),
  requests: NonNegInt.nullable().describe("planned measured requests per repeat (null when duration-bound)"),
  durationS: z.number().positive().nullable().describe("planned measured duration per repeat, seconds"),
  warmup: NonNegInt,
  maxConcurrency: z.number().int().positive().nullable(),
  burstiness: z.number().positive().nullable()
});
export type LoadPoint = z.infer<typeof LoadPoint>;

export const ClockAnchor = z.strictObject({
  wall: IsoTime,
  tNs: RelNs.describe("monotonic time of the same instant")
});

/** How the collector captured the requests (bundle v2; absent in v1, whose defaults are noted). */
export const Capture = z
  .strictObject({
    connection: z
      .enum(["reuse", "per_request"])
      .describe("reuse = keep-alive connections (v1 bundles: per_request, one fresh connection per request)"),
    connectionNote: z
      .string()
      .optional()
      .describe("why the connections differ from the config's (e.g. the server closes each connection)"),
    httpClient: HttpClient.optional().describe(
      "the collector's HTTP client (absent: node_http, the only one before it was recorded)"
    ),
    keepAliveIdleMs: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("idle keep-alive sockets were closed after this long (null with per_request)"),
    payloadBytes: NonNegInt.describe("bytes of each SSE event's data kept verbatim in the event (0 = none)"),
    closeMs: z
      .number()
      .positive()
      .describe("time allowed between a stream's terminal marker and its end before the client closed it")
  })
  .describe("capture settings that affect what the timestamps and events mean");

export const Manifest = z.strictObject({
  schemaVersion: z
    .union([z.literal(1), z.literal(2)], {
      error: (i) =>
        typeof i.input === "number" && Number.isInteger(i.input) && i.input > 2
          ? `bundle format ${i.input} is newer than this inferscope reads (1, 2): upgrade inferscope to read it`
          : `expected the bundle format version 1 or 2, got ${JSON.stringify(i.input) ?? String(i.input)}`
    })
    .describe("bundle format version (1 and 2 are read)"),
  bundleId: Slug,
  measureVersion: z
    .string()
    .describe("meaning of the captured timestamps; bundles of different versions are never compared"),
  status: BundleStatus,
  statusReason: z.string().nullable(),
  startedAt: IsoTime,
  finishedAt: IsoTime.nullable(),
  monotonicOriginNs: DecimalNs.describe("CLOCK_MONOTONIC value of time 0 in every record of this bundle"),
  timeUnit: z.literal("ns").describe("unit of every relative time in the records: integer nanoseconds"),
  clockAnchors: z.array(ClockAnchor).describe("(wall, monotonic) pairs taken during the run"),
  collector: z.strictObject({
    name: z.string(),
    version: z.string(),
    lockfileSha256: Sha256.nullable(),
    gitCommit: z.string().nullable(),
    node: z.string().nullable()
  }),
  configSha256: Sha256.describe("sha256 of config.resolved.yaml"),
  capture: Capture.optional(),
  durability: z.strictObject({
    fsyncIntervalMs: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("fsync interval, ms: the most a host crash or power loss can lose"),
    flushIntervalMs: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .describe(
        "v2: how often buffered records reach the operating system, ms: the most a killed collector (SIGKILL, out of memory) can lose of the requests that had finished; requests still in flight are lost with it"
      )
  }),
  prng: z.strictObject({name: z.string(), seed: z.number().int()}).nullable(),
  loadPoints: z.array(LoadPoint),
  workload: WorkloadFacts.optional().describe(
    "issue 16: the workload's source file and digest, how prompt blocks were sized"
  ),
  shard: ShardIdentity.optional(),
  merge: MergeFacts.optional(),
  labels: z.record(z.string(), z.string()),
  environment: Environment,
  provenance: Provenance,
  files: z.array(FileEntry).describe("every data file with its digest; the manifest is written last")
});
export type Manifest = z.infer<typeof Manifest>;
