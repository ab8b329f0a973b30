/**
 * Synthetic bundles for the site's browser tests, screenshots and build benchmark (written with
 * scripts/lib/synth.ts, provenance "synthetic"). Nothing here is a measurement.
 */
import {join} from "node:path";

import {
  closedLoop,
  loadPoint,
  loopSamples,
  SYNTH_ENVIRONMENT,
  writeSynthBundle,
  type SynthShape
} from "../../scripts/lib/synth.ts";
import type {RunConfigSpec as RunConfigInput} from "../../src/analysis/schema/config.ts";
import type {Environment, GpuSample, QualityRecord, RequestRecord, ServerScrape} from "../../src/analysis/index.ts";
import {QUALITY_VERSION} from "../../src/analysis/schema/versions.ts";

export const HOSTILE = `<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">`;

export interface SiteBundleSpec {
  id: string;
  model: string;
  gpu: {name: string; count: number} | null;
  engine: string;
  labels?: Record<string, string>;
  concurrency: number[];
  requests: number;
  /** Multiplies TTFT and token intervals (1 = the baseline speed). */
  slowdown: number;
  /** Every n-th measured request fails with HTTP 503 and this message (none when absent). */
  failEvery?: {n: number; message: string};
  telemetry?: boolean;
  quality?: {scorer: string; pass: number; fail: number; notEvaluated?: number};
  startedAt?: string;
  note?: string;
  tokens?: number;
  /** The run config's hardware block (model facts for the roofline and memory fit). */
  hardware?: RunConfigInput["hardware"];
}

function environment(spec: SiteBundleSpec): Environment {
  if (!spec.gpu) return {...SYNTH_ENVIRONMENT, server: {...SYNTH_ENVIRONMENT.server, engine: spec.engine}};
  return {
    ...SYNTH_ENVIRONMENT,
    gpu: {
      available: true,
      reason: null,
      devices: Array.from({length: spec.gpu.count}, (_, i) => ({
        index: i,
        name: spec.gpu!.name,
        uuid: null,
        memoryTotalMiB: 81_559,
        powerLimitW: 700,
        computeCapability: "9.0"
      })),
      driverVersion: "synthetic",
      cudaVersion: "synthetic",
      topology: null
    },
    server: {...SYNTH_ENVIRONMENT.server, engine: spec.engine, gpus: spec.gpu.count}
  };
}

/** Writes one sealed synthetic sweep bundle under `root`; returns its folder. */
export async function writeSiteBundle(root: string, spec: SiteBundleSpec): Promise<string> {
  const dir = join(root, spec.id);
  const tokens = spec.tokens ?? 64;
  let seq = 0;
  let start = 0;
  const requests: RequestRecord[] = [];
  for (const c of spec.concurrency) {
    const shape = (i: number): SynthShape => {
      const fail = spec.failEvery && i % spec.failEvery.n === spec.failEvery.n - 1;
      return {
        ttftMs: (35 + 12 * c + (i % 7) * 2) * spec.slowdown,
        tokens,
        intervalMs: (7 + c * 1.5 + (i % 4) * 0.3) * spec.slowdown,
        dispatchLagMs: 0.15,
        ...(fail ? {httpStatus: 503, errorMessage: spec.failEvery!.message} : {})
      };
    };
    const rs = closedLoop(`concurrency-${c}`, spec.requests, c, shape, {
      startMs: start,
      firstSeq: seq,
      idPrefix: `synthetic-concurrency-${c}-r0-`
    });
    seq += rs.length;
    start = Math.max(...rs.map((r) => r.tEndNs ?? r.tDispNs!)) / 1e6 + 500;
    requests.push(...rs);
  }
  const endS = start / 1000;
  const server: ServerScrape[] | undefined = spec.telemetry
    ? Array.from({length: Math.ceil(endS * 2)}, (_, i) => ({
        seq: i,
        tNs: i * 500_000_000,
        durationMs: 2,
        ok: true,
        error: null,
        samples: [
          ["vllm:num_requests_running", null, (i % 5) + 1],
          ["vllm:num_requests_waiting", null, i % 3],
          ["vllm:kv_cache_usage_perc", null, 0.2 + (i % 10) / 40],
          ["vllm:generation_tokens_total", null, i * 60]
        ]
      }))
    : undefined;
  const gpu: GpuSample[] | undefined =
    spec.telemetry && spec.gpu
      ? Array.from({length: Math.ceil(endS * 2)}, (_, i) => ({
          seq: i,
          tNs: i * 500_000_000,
          ok: true,
          error: null,
          gpus: Array.from({length: spec.gpu!.count}, (_, g) => ({
            index: g,
            uuid: null,
            utilPct: 60 + ((i + g * 3) % 9) * 4,
            memUsedMiB: 70_000 + g * 100,
            memTotalMiB: 81_559,
            powerW: 450 + ((i + g) % 7) * 20,
            tempC: 60,
            smClockMHz: 1980,
            memClockMHz: 2619
          }))
        }))
      : undefined;
  const quality: QualityRecord[] | undefined = spec.quality
    ? [
        ...Array.from({length: spec.quality.pass}, () => "pass" as const),
        ...Array.from({length: spec.quality.fail}, () => "fail" as const),
        ...Array.from({length: spec.quality.notEvaluated ?? 0}, () => "not_evaluated" as const)
      ].map((verdict, i) => ({
        seq: i,
        qualityVersion: QUALITY_VERSION,
        caseId: "case_11_instructions",
        scorer: spec.quality!.scorer,
        itemId: `item-${i}`,
        requestId: null,
        point: null,
        tier: null,
        promptDigest: null,
        response: verdict === "not_evaluated" ? null : `response ${i}`,
        extracted: null,
        expected: null,
        verdict,
        reason: verdict === "fail" ? "constraint not met" : verdict === "not_evaluated" ? "truncated" : null,
        details: {}
      }))
    : undefined;
  await writeSynthBundle({
    dir,
    id: spec.id,
    config: {
      name: "sweep",
      labels: spec.labels ?? {},
      target: {base_url: "http://127.0.0.1:8000/v1", model: spec.model, engine: spec.engine},
      workload: {prompt_tokens: 128, max_tokens: tokens, ignore_eos: true},
      load: {mode: "concurrency", values: spec.concurrency, requests: spec.requests, warmup: 0},
      ...(spec.hardware ? {hardware: spec.hardware} : {})
    },
    points: spec.concurrency.map((c) => loadPoint("concurrency", c, spec.requests)),
    requests,
    client: loopSamples(Math.ceil(start), 1.1),
    ...(server ? {server} : {}),
    ...(gpu ? {gpu} : {}),
    ...(quality ? {quality} : {}),
    environment: environment(spec),
    labels: spec.labels ?? {},
    ...(spec.startedAt ? {startedAt: spec.startedAt} : {}),
    note: spec.note ?? "SYNTHETIC site test/benchmark input written by test/site/synthSite.ts: not a measurement"
  });
  return dir;
}

/** A bundle whose model name and error messages carry markup: it must render as text everywhere. */
export function hostileSpec(): SiteBundleSpec {
  return {
    id: "20261102-synthetic-hostile-strings",
    model: `hostile${HOSTILE}`,
    gpu: null,
    engine: `engine${HOSTILE}`,
    labels: {note: HOSTILE},
    concurrency: [1, 2],
    requests: 20,
    slowdown: 1,
    failEvery: {n: 5, message: `upstream said ${HOSTILE}`},
    note: `hostile strings test bundle ${HOSTILE}`
  };
}

/**
 * A small demo set: two comparable GPU bundles (two --parallel settings) with telemetry and quality, one
 * slower engine of the same model, and one other model: enough for compare, Pareto, matrix and select.
 */
export function demoSpecs(): SiteBundleSpec[] {
  const base = {concurrency: [1, 2, 4, 8], requests: 40, telemetry: true};
  return [
    {
      ...base,
      id: "20261103-synthetic-h100-vllm-demo-parallel1",
      model: "demo-8b",
      gpu: {name: "NVIDIA H100 80GB HBM3", count: 1},
      engine: "vllm",
      labels: {parallel: "1"},
      slowdown: 1,
      quality: {scorer: "instructions", pass: 41, fail: 9, notEvaluated: 2},
      startedAt: "2026-11-03T08:00:00.000Z",
      hardware: {
        model: {params: 8e9, weight_bytes: 16e9, layers: 32, kv_heads: 8, head_dim: 128, kv_cache_dtype: "bf16"}
      }
    },
    {
      ...base,
      id: "20261103-synthetic-h100-vllm-demo-parallel2",
      model: "demo-8b",
      gpu: {name: "NVIDIA H100 80GB HBM3", count: 2},
      engine: "vllm",
      labels: {parallel: "2"},
      slowdown: 0.8,
      quality: {scorer: "instructions", pass: 42, fail: 8},
      startedAt: "2026-11-03T09:00:00.000Z"
    },
    {
      ...base,
      id: "20261103-synthetic-l40s-sglang-demo",
      model: "demo-8b",
      gpu: {name: "NVIDIA L40S", count: 1},
      engine: "sglang",
      slowdown: 1.6,
      failEvery: {n: 40, message: 'HTTP 503: {"error":"overloaded"}'},
      startedAt: "2026-11-03T10:00:00.000Z"
    },
    {
      ...base,
      id: "20261103-synthetic-h100-vllm-demo-70b",
      model: "demo-70b",
      gpu: {name: "NVIDIA H100 80GB HBM3", count: 4},
      engine: "vllm",
      slowdown: 2.4,
      startedAt: "2026-11-03T11:00:00.000Z"
    }
  ];
}
