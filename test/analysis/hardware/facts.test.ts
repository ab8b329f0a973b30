import {describe, expect, it} from "vitest";

import {
  capacityOf,
  hostBandwidth,
  measuredHost,
  modelFacts,
  parseCatalogue,
  serverMemory,
  type HardwareData,
  type Manifest,
  type RunConfig
} from "../../../src/analysis/index.ts";
import type {Environment, ServerScrape} from "../../../src/analysis/index.ts";
import {SYNTH_ENVIRONMENT} from "../../../scripts/lib/synth.ts";

const DATA = {
  catalogue: parseCatalogue(
    `version: 1
updated: "2026"
sources: {s: {title: "Sheet", publisher: "Vendor", date: "2026"}}
gpus:
  - {id: card80, vendor: nvidia, name: Card 80, match: ["NVIDIA Card80"], memory_gb: {value: 80, source: s}}
  - {id: nomem, vendor: nvidia, name: No Memory, match: ["NVIDIA NoMem"]}
`,
    "gpus.yaml"
  ),
  engines: {version: 1, updated: "2026", sources: {}, features: []},
  prices: {version: 1, date: "2026", currency: "USD", sources: {}, prices: []},
  overrides: []
} as unknown as HardwareData;

const gpu = (index: number, name: string, memoryTotalMiB: number | null) => ({
  index,
  name,
  uuid: `GPU-${index}`,
  memoryTotalMiB,
  powerLimitW: 700,
  computeCapability: "9.0"
});
const gpuEnv = (devices: ReturnType<typeof gpu>[], gpus: number | null = null): Environment => ({
  ...SYNTH_ENVIRONMENT,
  gpu: {available: true, reason: null, devices, driverVersion: "550", cudaVersion: "12.4", topology: "GPU0 X"},
  server: {...SYNTH_ENVIRONMENT.server, gpus}
});
const manifest = (environment: Environment, provenance: Manifest["provenance"] = {kind: "collected"}) =>
  ({environment, provenance}) as unknown as Manifest;
const imported = (declared?: {gpu_model: string; gpu_count: number}) =>
  ({
    kind: "imported",
    tool: "vllm",
    toolVersion: null,
    files: [],
    ...(declared ? {declared: {hardware: declared}} : {})
  }) as Manifest["provenance"];

describe("measuredHost: what the fingerprint says, and what an import may claim", () => {
  it("GPUs listed: kind gpu, matched card, count from the listing; the run config's target.gpus wins", () => {
    const h = measuredHost(
      manifest(gpuEnv([gpu(0, "NVIDIA Card80", 81559), gpu(1, "NVIDIA Card80", 81559)])),
      null,
      DATA
    );
    expect([h.kind, h.card, h.gpuCount.value, h.gpuCount.from]).toEqual([
      "gpu",
      "card80",
      2,
      "GPUs the fingerprint listed"
    ]);
    expect(h.gpus.map((g) => g.catalogueId)).toEqual(["card80", "card80"]);
    expect(h.driver).toBe("550");
    const one = measuredHost(
      manifest(gpuEnv([gpu(0, "NVIDIA Card80", 81559), gpu(1, "NVIDIA Card80", 81559)], 1)),
      null,
      DATA
    );
    expect(one.gpuCount).toEqual({value: 1, from: "run config target.gpus", reason: null});
  });
  it("hardware.gpu names the card when the tool's name does not match; hardware.gpu_count the GPUs", () => {
    const config = {hardware: {gpu: "card80", gpu_count: 3}} as unknown as RunConfig;
    const h = measuredHost(manifest(gpuEnv([gpu(0, "Some OEM name", 81559)])), config, DATA);
    expect([h.card, h.gpuCount.value]).toEqual(["card80", 3]);
  });
  it("an import's environment is not the serving host's: unknown without a declaration, declared with one", () => {
    const none = measuredHost(manifest(SYNTH_ENVIRONMENT, imported()), null, DATA);
    expect([none.kind, none.card, none.gpuCount.value]).toEqual(["unknown", null, null]);
    expect(none.gpuCount.reason).toMatch(/declares no hardware/);
    const dec = measuredHost(manifest(SYNTH_ENVIRONMENT, imported({gpu_model: "Card80", gpu_count: 8})), null, DATA);
    expect([dec.kind, dec.card, dec.gpuCount.value]).toEqual(["declared", "card80", 8]);
  });
  it("an import that names GPUs (AIPerf's telemetry) but not how many served: card known, count unknown", () => {
    const named = gpuEnv([gpu(0, "NVIDIA Card80", null), gpu(1, "NVIDIA Card80", null)]);
    const h = measuredHost(manifest(named, imported()), null, DATA);
    expect([h.kind, h.card, h.gpuCount.value]).toEqual(["gpu", "card80", null]);
    expect(h.gpuCount.reason).toMatch(/names the GPUs its source saw, not how many served/);
    const dec = measuredHost(manifest(named, imported({gpu_model: "Card80", gpu_count: 1})), null, DATA);
    expect([dec.card, dec.gpuCount.value, dec.gpuCount.from]).toEqual([
      "card80",
      1,
      "declared by the importer (--hardware gpu_count)"
    ]);
    // a source that states its serving GPUs (llm-d, InferScope v1) keeps its count
    const stated = measuredHost(manifest(gpuEnv([gpu(0, "NVIDIA Card80", null)], 1), imported()), null, DATA);
    expect(stated.gpuCount.value).toBe(1);
  });
  it("a CPU host is one host, priced per host-hour; no manifest is unknown", () => {
    const cpu = measuredHost(manifest(SYNTH_ENVIRONMENT), null, DATA);
    expect([cpu.kind, cpu.gpuCount.value, cpu.card]).toEqual(["cpu", 1, null]);
    const nothing = measuredHost(null, null, DATA);
    expect([nothing.kind, nothing.p2p.status, nothing.hostBandwidthGBs.value]).toEqual(["unknown", "unknown", null]);
  });
});

describe("capacityOf: the memory the model may use", () => {
  const host = (m: Manifest, config: RunConfig | null = null) => measuredHost(m, config, DATA);
  const card = (id: string) => DATA.catalogue.gpus.find((g) => g.id === id)!;
  it("serving GPUs as measured: 2 × 81 559 MiB; only the serving ones (target.gpus 1 → 81 559 MiB)", () => {
    const two = manifest(gpuEnv([gpu(0, "NVIDIA Card80", 81559), gpu(1, "NVIDIA Card80", 81559)]));
    expect(capacityOf(host(two), card("card80")).value).toBe(2 * 81559 * 2 ** 20);
    const one = manifest(gpuEnv([gpu(0, "NVIDIA Card80", 81559), gpu(1, "NVIDIA Card80", 40000)], 1));
    expect(capacityOf(host(one), card("card80")).value).toBe(81559 * 2 ** 20);
  });
  it("a GPU whose memory the tool did not print: the catalogue's, 80 GB × 10⁹ per GPU", () => {
    const m = manifest(gpuEnv([gpu(0, "NVIDIA Card80", 81559), gpu(1, "NVIDIA Card80", null)]));
    expect(capacityOf(host(m), card("card80"))).toMatchObject({value: 160e9, from: "2 × 80 GB (catalogue: Card 80)"});
    expect(capacityOf(host(m), card("nomem")).value).toBeNull();
  });
  it("declared: the catalogue's × the declared count; CPU: the RAM", () => {
    const dec = host(manifest(SYNTH_ENVIRONMENT, imported({gpu_model: "Card80", gpu_count: 4})));
    expect(capacityOf(dec, card("card80")).value).toBe(320e9);
    expect(capacityOf(dec, null).reason).toMatch(/declared card not in the catalogue/);
    const cpu = host(manifest({...SYNTH_ENVIRONMENT, host: {...SYNTH_ENVIRONMENT.host, memoryBytes: 24e9}}));
    expect(capacityOf(cpu, null).value).toBe(24e9);
  });
});

describe("serverMemory: the server's own KV usage peak and preemptions", () => {
  const scrape = (seq: number, samples: ServerScrape["samples"], ok = true): ServerScrape => ({
    seq,
    tNs: seq * 1e9,
    durationMs: 1,
    ok,
    error: ok ? null : "HTTP 500",
    samples
  });
  it("the peak of vllm:kv_cache_usage_perc; preemptions last − first (summed over label sets)", () => {
    const m = serverMemory([
      scrape(0, [
        ["vllm:kv_cache_usage_perc", null, 0.2],
        ["vllm:num_preemptions_total", {model: "a"}, 3]
      ]),
      scrape(
        1,
        [
          ["vllm:kv_cache_usage_perc", null, 0.9],
          ["vllm:num_preemptions_total", {model: "a"}, 5]
        ],
        false
      ),
      scrape(2, [
        ["vllm:kv_cache_usage_perc", null, 0.7],
        ["vllm:num_preemptions_total", {model: "a"}, 4],
        ["vllm:num_preemptions_total", {model: "b"}, 6]
      ])
    ]);
    expect(m.kvUsagePeak).toEqual({value: 0.7, from: "peak of vllm:kv_cache_usage_perc", reason: null}); // a failed scrape is not read
    expect(m.preemptions.value).toBe(10 - 3);
  });
  it("llama.cpp's ratio and SGLang's token usage count too; nothing reported is unknown, with why", () => {
    expect(serverMemory([scrape(0, [["llamacpp:kv_cache_usage_ratio", null, 0.4]])]).kvUsagePeak.value).toBe(0.4);
    expect(serverMemory([scrape(0, [["sglang:token_usage", null, 0.3]])]).kvUsagePeak.value).toBe(0.3);
    const none = serverMemory([scrape(0, [["llamacpp:prompt_tokens_total", null, 10]])]);
    expect(none.kvUsagePeak.reason).toBe("KV-cache usage not reported: the server's /metrics has no such series");
    expect(serverMemory([]).preemptions.reason).toBe("preemptions not reported: no /metrics scrapes in the bundle");
    expect(serverMemory([scrape(0, [["vllm:num_preemptions_total", null, 1]])]).preemptions.reason).toMatch(
      /one scrape only/
    );
  });
});

describe("hostBandwidth: the best pass of the raw probe, GB/s", () => {
  it("bytes moved ÷ ns of the fastest pass: 2.5e8 B in 1e7 ns = 25 GB/s", () => {
    const probe = {
      method: "parallel-copy" as const,
      threads: 2,
      bufferBytes: 1,
      trials: [
        {bytesMoved: 2.5e8, ns: 2e7},
        {bytesMoved: 2.5e8, ns: 1e7},
        {bytesMoved: 2.5e8, ns: 0}
      ],
      error: null
    };
    expect(hostBandwidth(probe)).toEqual({value: 25, from: "best of 2 parallel-copy passes, 2 threads", reason: null});
    expect(hostBandwidth({...probe, trials: [], error: "timed out"}).reason).toBe(
      "host bandwidth not measured: timed out"
    );
    expect(hostBandwidth({...probe, trials: [{bytesMoved: 1, ns: 0}]}).reason).toMatch(/no timed pass/);
    expect(hostBandwidth(undefined).reason).toMatch(/predates/);
    const reused = {...probe, reusedFrom: {measuredAt: "2026-12-02T10:00:00.000Z", bootId: "b"}};
    expect(hostBandwidth(reused).from).toBe(
      "best of 2 parallel-copy passes, 2 threads (measured 2026-12-02T10:00:00.000Z, same boot, reused)"
    );
  });
});

describe("modelFacts: the config, the GGUF header, then llama.cpp's /v1/models", () => {
  const served: Environment = {
    ...SYNTH_ENVIRONMENT,
    server: {
      ...SYNTH_ENVIRONMENT.server,
      engine: "vllm",
      models: {data: [{id: "m-7b", meta: {n_params: 7e9, size: 14e9}}]},
      launchArgs: ["vllm", "serve", "m", "--kv-cache-dtype", "fp8_e4m3"]
    }
  };
  it("llama.cpp's n_params and size when no header was read; vLLM's --kv-cache-dtype fp8 is one byte", () => {
    const m = modelFacts(served, null);
    expect([m.name, m.params.value, m.weightBytes.value, m.kvBytesPerElement.value]).toEqual(["m-7b", 7e9, 14e9, 1]);
    expect(m.params.from).toBe("server /v1/models meta.n_params");
    expect(m.kvBytesPerToken.value).toBeNull(); // layers and heads unknown
  });
  it("the run config's facts win; bytes_per_weight × params when the weight size is not stated", () => {
    const config = {
      hardware: {
        model: {params: 8e9, bytes_per_weight: 2, layers: 32, kv_heads: 8, head_dim: 128, kv_cache_dtype: "bf16"}
      }
    } as unknown as RunConfig;
    const bare = {...served, server: {...served.server, models: null}};
    const m = modelFacts(bare, config);
    expect(m.weightBytes).toMatchObject({value: 16e9, from: "params × hardware.model.bytes_per_weight"});
    expect(m.kvBytesPerToken.value).toBe(32 * 8 * 256 * 2); // 131 072
  });
  it("a mixture of experts: active parameters unknown unless stated", () => {
    const moe: Environment = {
      ...SYNTH_ENVIRONMENT,
      model: {
        file: {
          format: "gguf",
          path: "m.gguf",
          fileBytes: 100,
          tensorDataBytes: 90,
          metadata: {"general.architecture": "qwen3moe", "qwen3moe.expert_count": 128},
          tensorTypes: {q4_k: {tensors: 10, elements: 1000}}
        },
        reason: null
      }
    };
    const m = modelFacts(moe, null);
    expect([m.experts, m.params.value, m.activeParams.value]).toEqual([128, 1000, null]);
    expect(m.activeParams.reason).toMatch(/mixture of experts \(128 experts\)/);
  });
  it("a llama.cpp server without recorded launch arguments: the KV-cache type is unknown", () => {
    const env = {...SYNTH_ENVIRONMENT, server: {...SYNTH_ENVIRONMENT.server, engine: "llama.cpp", launchArgs: null}};
    expect(modelFacts(env, null).kvBytesPerElement.reason).toMatch(/launch arguments not recorded/);
    const q4 = {...env, server: {...env.server, launchArgs: ["llama-server", "-ctk", "q4_0", "-ctv", "q4_0"]}};
    expect(modelFacts(q4, null).kvBytesPerElement.value).toBe(18 / 32);
    const odd = {...env, server: {...env.server, launchArgs: ["llama-server", "-ctk", "turbo3"]}};
    expect(modelFacts(odd, null).kvBytesPerElement.reason).toMatch(/turbo3 not in the table/);
  });
});
