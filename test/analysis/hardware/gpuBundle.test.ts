import {describe, expect, it} from "vitest";

import {parseCatalogue, parseEngines, parsePrices, type HardwareData} from "../../../src/analysis/index.ts";
import type {Environment, GpuSample, HardwareReport} from "../../../src/analysis/index.ts";
import {SYNTH_ENVIRONMENT} from "../../../scripts/lib/synth.ts";
import {analyzeFiles, analyzeValid, bundleFiles, cleanRun, MS, point, streamed} from "../../support/bundle.ts";

/**
 * A synthetic one-GPU bundle whose hardware numbers are worked by hand (the arithmetic is in the comments):
 * memory fit, the decode roofline and the measured fraction of it, the four cost layers, and energy per token.
 *
 * The setup: an H100-named GPU (81 559 MiB measured), a test catalogue giving it 3 350 GB/s, prices 2, 4 and
 * 6 $/GPU-hour on demand (median 4). A model of 16 GB of weights, 32 layers, 8 KV heads of dimension 128,
 * f16 KV cache: 32 × 8 × (128 + 128) × 2 = 131 072 KV bytes per token. Four closed-loop lanes of five
 * requests each, back to back from 0 ms: 1 000 prompt tokens, 100 output tokens 10 ms apart, the end 2 ms
 * after the last token. Requests 0, 2, 4 of a lane miss the prompt cache (TTFT 100 ms = 0.1 ms × 1 000);
 * requests 1 and 3 hit 600 tokens (TTFT 46 ms = 0.1 ms × 400 + 0.01 ms × 600).
 */

const CATALOGUE = `
version: 1
updated: "2026-12"
sources:
  sheet: {title: "Test datasheet", publisher: "Test vendor", date: "2026-01"}
gpus:
  - id: test-h100
    vendor: nvidia
    name: Test H100
    match: ["NVIDIA H100 80GB HBM3"]
    memory_gb: {value: 80, source: sheet}
    memory_bandwidth_gbs: {value: 3350, source: sheet}
`;
const ENGINES = `
version: 1
updated: "2026-12"
sources: {}
features: []
`;
const PRICES = `
version: 1
date: "2026-11"
currency: USD
sources:
  list: {title: "Test price list", publisher: "Test cloud", date: "2026-11"}
prices:
  - {gpu: test-h100, kind: on_demand, usd_per_gpu_hour: 2, provider: a, source: list}
  - {gpu: test-h100, kind: on_demand, usd_per_gpu_hour: 6, provider: b, source: list}
  - {gpu: test-h100, kind: on_demand, usd_per_gpu_hour: 4, provider: c, source: list}
  - {gpu: test-h100, kind: reserved, usd_per_gpu_hour: 1, provider: a, source: list}
`;

const DATA: HardwareData = {
  catalogue: parseCatalogue(CATALOGUE, "gpus.yaml"),
  engines: parseEngines(ENGINES, "engines.yaml"),
  prices: parsePrices(PRICES, "prices.yaml"),
  overrides: []
};

const GPU_ENV: Environment = {
  ...SYNTH_ENVIRONMENT,
  gpu: {
    available: true,
    reason: null,
    devices: [
      {
        index: 0,
        name: "NVIDIA H100 80GB HBM3",
        uuid: "GPU-test",
        memoryTotalMiB: 81559,
        powerLimitW: 700,
        computeCapability: "9.0"
      }
    ],
    driverVersion: "550.54.15",
    cudaVersion: "12.4",
    topology: null
  }
};

const LANE_TTFT = [100, 46, 100, 46, 100];

function requests(): ReturnType<typeof streamed>[] {
  const out: ReturnType<typeof streamed>[] = [];
  for (let lane = 0; lane < 4; lane++) {
    let at = 0;
    LANE_TTFT.forEach((ttft, j) => {
      const hit = ttft === 46 ? 600 : 0;
      const dur = ttft + 990 + 2;
      out.push(
        streamed(`l${lane}r${j}`, at, {
          point: "concurrency-4",
          index: lane * 5 + j,
          tokens: 100,
          gapMs: 10,
          ttftMs: ttft,
          durMs: dur,
          usage: {promptTokens: 1000, completionTokens: 100, reasoningTokens: null, cachedTokens: hit}
        })
      );
      at += dur;
    });
  }
  return out;
}

/** Power samples every 250 ms from −250 ms to 5 602 ms at `watts(tMs)`. */
function power(watts: (tMs: number) => number, keep: (tMs: number) => boolean = () => true) {
  const out: Omit<GpuSample, "seq">[] = [];
  for (let t = -250; t <= 5602; t += 250)
    if (keep(t))
      out.push({
        tNs: t * MS,
        ok: true,
        error: null,
        gpus: [
          {
            index: 0,
            uuid: "GPU-test",
            utilPct: 90,
            memUsedMiB: 70000,
            memTotalMiB: 81559,
            powerW: watts(t),
            tempC: 60,
            smClockMHz: 1980,
            memClockMHz: 2619
          }
        ]
      });
  return out;
}

async function analyzed(
  gpu = power(() => 400),
  data: HardwareData = DATA,
  env: Environment = GPU_ENV
): Promise<HardwareReport> {
  const spec = cleanRun(requests(), {
    points: [point("concurrency", 4)],
    gpu,
    manifest: {environment: env},
    config: {
      load: {mode: "concurrency", values: [4], warmup: 0},
      workload: {prompt_tokens: 1000, max_tokens: 100, ignore_eos: false},
      hardware: {
        model: {params: 8e9, weight_bytes: 16e9, layers: 32, kv_heads: 8, head_dim: 128, kv_cache_dtype: "f16"}
      }
    }
  });
  const report = await analyzeValid(spec, {hardware: data});
  expect(report.hardware).toBeDefined();
  return report.hardware!;
}

describe("hardware block of a synthetic GPU bundle (numbers worked by hand)", () => {
  it("matches the measured GPU to the catalogue and counts one serving GPU", async () => {
    const h = await analyzed();
    expect(h.host.kind).toBe("gpu");
    expect(h.host.card).toBe("test-h100");
    expect(h.host.gpuCount.value).toBe(1);
    expect(h.bandwidth.value).toBe(3350);
  });

  it("memory fit: 16 GB + 131 072 B × 1 100 tokens × 4 sequences against 81 559 MiB", async () => {
    const h = await analyzed();
    expect(h.model.kvBytesPerToken.value).toBe(131072);
    const run = h.fit.run!;
    // KV: 131 072 × (1 000 prompt + 100 max_tokens) × 4 = 576 716 800; total 16 576 716 800
    expect(run.kvBytes).toBe(576_716_800);
    expect(run.totalBytes).toBe(16_576_716_800);
    // capacity 81 559 × 1 048 576 = 85 520 809 984; headroom (cap − total) / cap = 80.6167 %
    expect(run.capacityBytes).toBe(85_520_809_984);
    expect(run.fits).toBe("yes");
    expect(run.headroomPct).toBeCloseTo(80.6167, 3);
  });

  it("roofline: 3 350 GB/s ÷ (16 GB + 4 × 1 050 × 131 072 B) = 202.41 tok/s per sequence; measured 100 → 0.494", async () => {
    const p = (await analyzed()).points[0]!;
    expect(p.batch.value).toBeCloseTo(4, 9);
    expect(p.contextTokens.value).toBe(1050); // 1 000 + 100 / 2
    expect(p.boundTokS.value).toBeCloseTo(202.41077, 4);
    expect(p.measuredTokS.value).toBeCloseTo(100, 9); // 99 tokens over 990 ms
    expect(p.fraction.value).toBeCloseTo(0.494045, 5);
  });

  it("a server with 2 slots decodes 2 of the 4 requests in flight: bound 3 350 GB/s ÷ (16 GB + 2 × 1 050 × 131 072 B)", async () => {
    const env = {...GPU_ENV, server: {...GPU_ENV.server, version: {"/props": {total_slots: 2}}}};
    const p = (await analyzed(undefined, DATA, env)).points[0]!;
    expect(p.batch.value).toBe(2);
    expect(p.batch.from).toMatch(/capped at the server's 2 slots/);
    expect(p.boundTokS.value).toBeCloseTo(205.834, 3); // 3 350·10⁹ ÷ 16 275 251 200
  });

  it("a measured speed above the bound is flagged, not read as a speed-up", async () => {
    const slow = parseCatalogue(CATALOGUE.replace("value: 3350", "value: 500"), "gpus.yaml");
    const p = (await analyzed(undefined, {...DATA, catalogue: slow})).points[0]!;
    // 500 GB/s ÷ 16 550 502 400 B = 30.21 tok/s; measured 100 → 3.31
    expect(p.boundTokS.value).toBeCloseTo(30.2106, 3);
    expect(p.fraction.value).toBeCloseTo(3.31009, 4);
    expect(p.fractionNote).toMatch(/above the memory-bandwidth bound/);
  });

  it("cost layers: 4 $/h × 5.352 s; prefill share 1 568 / 21 408; hits ten times cheaper than misses", async () => {
    const c = (await analyzed()).points[0]!.cost;
    expect(c.price.value).toBe(4); // median of 2, 4, 6 on demand (the reserved row is not in it)
    expect(c.gpuHours.value).toBeCloseTo(5.352 / 3600, 12);
    // C = 4 × 5.352 / 3600 = 0.00594667 $ over 20 requests
    expect(c.perRequest.value).toBeCloseTo(0.000297333, 9);
    // Σ prefill 12 × 100 + 8 × 46 = 1 568 ms; Σ decode 20 × 992 = 19 840 ms
    expect(c.inputShare.value).toBeCloseTo(1568 / 21408, 12);
    // output: C × 19 840 / 21 408 ÷ 2 000 tokens × 10⁶ = 2.75556 $/Mtok
    expect(c.perMOutput.value).toBeCloseTo(2.755556, 5);
    // all prompt tokens: C × 1 568 / 21 408 ÷ 20 000 × 10⁶ = 0.0217778
    expect(c.perMInput.value).toBeCloseTo(0.0217778, 6);
    // fit a = 0.1, b = 0.01 ms/token: misses 1 520 of 1 568 ms over 15 200 tokens, hits 48 ms over 4 800
    expect(c.perMInputMiss.value).toBeCloseTo(0.0277778, 6);
    expect(c.perMInputHit.value).toBeCloseTo(0.00277778, 7);
  });

  it("energy: 400 W over 5.352 s = 2 140.8 J, 1.0704 J per output token, 3 363 229 tokens per kWh", async () => {
    const e = (await analyzed()).points[0]!.energy;
    expect(e.joules.value).toBeCloseTo(2140.8, 6);
    expect(e.joulesPerOutputToken.value).toBeCloseTo(1.0704, 8);
    expect(e.tokensPerKWh.value).toBeCloseTo(3363228.7, 0);
    expect(e.samples).toBe(21); // 250, 500 … 5 250 ms inside (0, 5 352)
    expect(e.sparse).toBe(false);
  });

  it("energy integrates a power step by trapezoids: 300 W × 1.75 s + 400 W × 0.25 s + 500 W × 3.352 s", async () => {
    const e = (await analyzed(power((t) => (t < 2000 ? 300 : 500)))).points[0]!.energy;
    expect(e.joules.value).toBeCloseTo(525 + 100 + 1676, 6);
  });

  it("a gap in the power samples makes the energy unknown, never lower", async () => {
    const e = (
      await analyzed(
        power(
          () => 400,
          (t) => t < 1000 || t > 3000
        )
      )
    ).points[0]!.energy;
    expect(e.joules.value).toBeNull();
    expect(e.joulesPerOutputToken.value).toBeNull();
    expect(e.reason).toMatch(/2\.5 s gap/); // kept: 750 ms, then 3 250 ms
  });

  it("samples that do not reach the window's end make it unknown", async () => {
    const e = (
      await analyzed(
        power(
          () => 400,
          (t) => t < 5000
        )
      )
    ).points[0]!.energy;
    expect(e.joules.value).toBeNull();
    expect(e.reason).toMatch(/none after its end/);
  });

  it("sparse sampling is flagged but integrated", async () => {
    const e = (
      await analyzed(
        power(
          () => 400,
          (t) => t % 2000 === 0 || t === -250 || t === 5602 - 102
        )
      )
    ).points[0]!.energy;
    expect(e.sparse).toBe(true);
    expect(e.reason).toMatch(/only \d+ power samples/);
    expect(e.joules.value).toBeCloseTo(2140.8, 6);
  });
});

/** The same bundle with its pieces replaced: requests, points, power samples, environment, hardware config. */
async function analyzedWith(o: {
  reqs?: ReturnType<typeof streamed>[];
  repeats?: number;
  gpu?: Omit<GpuSample, "seq">[];
  env?: Environment;
  hardware?: Record<string, unknown>;
}) {
  const spec = cleanRun(o.reqs ?? requests(), {
    points: [point("concurrency", 4, {repeats: o.repeats ?? 1})],
    gpu: o.gpu ?? power(() => 400),
    manifest: {environment: o.env ?? GPU_ENV},
    config: {
      load: {mode: "concurrency", values: [4], warmup: 0},
      workload: {prompt_tokens: 1000, max_tokens: 100, ignore_eos: false},
      hardware: {
        model: {params: 8e9, weight_bytes: 16e9, layers: 32, kv_heads: 8, head_dim: 128, kv_cache_dtype: "f16"},
        ...o.hardware
      }
    }
  });
  return {spec, report: await analyzeValid(spec, {hardware: DATA})};
}

/** `samples` with every GPU's power replaced by `watts(tMs, gpu index)` for the GPUs of `indexes`. */
function powerOf(samples: Omit<GpuSample, "seq">[], indexes: number[], watts: (tMs: number) => number) {
  return samples.map((s) => ({
    ...s,
    gpus: indexes.map((index) => ({...s.gpus[0]!, index, uuid: `GPU-${index}`, powerW: watts(s.tNs / MS)}))
  }));
}

describe("hardware block: the edges an audit found (numbers worked by hand)", () => {
  it("energy of two repeats integrates each repeat's window, not the idle time between them", async () => {
    // repeat 1 is repeat 0 shifted by 10 000 ms: windows [0, 5 352] and [10 000, 15 352] ms; 400 W throughout
    const second = requests().map((r) => ({
      ...r,
      repeat: 1,
      tSchedNs: r.tSchedNs! + 10_000 * MS,
      tDispNs: r.tDispNs! + 10_000 * MS,
      tHdrNs: r.tHdrNs! + 10_000 * MS,
      tByte1Ns: r.tByte1Ns! + 10_000 * MS,
      tEndNs: r.tEndNs! + 10_000 * MS,
      events: r.events.map((e) => [e[0] + 10_000 * MS, ...e.slice(1)] as typeof e)
    }));
    const samples: Omit<GpuSample, "seq">[] = [];
    for (let t = -250; t <= 15_602; t += 250) samples.push({...power(() => 400)[0]!, tNs: t * MS});
    const {report} = await analyzedWith({reqs: [...requests(), ...second], repeats: 2, gpu: samples});
    const p = report.hardware!.points[0]!;
    // the cost's window is 2 × 5.352 s; the energy's the same: 400 W × 10.704 s = 4 281.6 J (not × 15.352 s)
    expect(p.cost.gpuHours.value).toBeCloseTo(10.704 / 3600, 12);
    expect(p.energy.joules.value).toBeCloseTo(4281.6, 6);
    expect(p.energy.joulesPerOutputToken.value).toBeCloseTo(4281.6 / 4000, 9); // 40 requests × 100 tokens
  });

  it("a negative power reading is not a measurement: the energy is unknown, not lower", async () => {
    const {report} = await analyzedWith({gpu: power((t) => (t === 1000 ? -50 : 400))});
    const e = report.hardware!.points[0]!.energy;
    expect(e.joules.value).toBeNull();
    expect(e.joulesPerOutputToken.value).toBeNull();
    expect(e.reason).toMatch(/power\.draw -50 W for GPU 0: not a measurement/);
  });

  it("active_params stated in the run config: only their share of the weights is read per token", async () => {
    // 16 GB × 2 / 8 = 4 GB read per token; bound 3 350·10⁹ ÷ (4·10⁹ + 4 × 1 050 × 131 072) = 736.18 tok/s
    const {report} = await analyzedWith({
      hardware: {
        model: {
          params: 8e9,
          active_params: 2e9,
          weight_bytes: 16e9,
          layers: 32,
          kv_heads: 8,
          head_dim: 128,
          kv_cache_dtype: "f16"
        }
      }
    });
    expect(report.hardware!.points[0]!.boundTokS.value).toBeCloseTo(3350e9 / (4e9 + 4 * 1050 * 131072), 6);
    expect(report.hardware!.points[0]!.boundTokS.value).toBeCloseTo(736.1825, 3);
  });

  it("different cards among the serving GPUs: no bandwidth bound, no price; their memory still adds up", async () => {
    const env: Environment = {
      ...GPU_ENV,
      gpu: {
        ...GPU_ENV.gpu,
        devices: [
          GPU_ENV.gpu.devices[0]!,
          {...GPU_ENV.gpu.devices[0]!, index: 1, name: "NVIDIA L4", uuid: "GPU-l4", memoryTotalMiB: 23034}
        ]
      }
    };
    const {report} = await analyzedWith({
      env,
      gpu: powerOf(
        power(() => 0),
        [0, 1],
        () => 200
      )
    });
    const h = report.hardware!;
    expect(h.bandwidth.value).toBeNull();
    expect(h.bandwidth.reason).toMatch(/different cards \(NVIDIA H100 80GB HBM3, NVIDIA L4\)/);
    expect(h.points[0]!.cost.price.value).toBeNull();
    expect(h.points[0]!.cost.perMOutput.value).toBeNull();
    expect(h.fit.capacity.value).toBe((81559 + 23034) * 2 ** 20);
    expect(h.points[0]!.energy.joules.value).toBeCloseTo(400 * 5.352, 6); // 2 × 200 W, both GPUs measured
    // naming one card for them all reads them as it: 2 × 3 350 GB/s, priced as two
    const named = (await analyzedWith({env, hardware: {gpu: "test-h100"}})).report.hardware!;
    expect(named.bandwidth.value).toBe(6700);
    expect(named.points[0]!.cost.price.value).toBe(4);
  });

  it("gpu_count above the GPUs listed: the memory from the catalogue, the energy unknown (telemetry of 1 of 2)", async () => {
    const {report} = await analyzedWith({hardware: {gpu_count: 2}});
    const h = report.hardware!;
    expect(h.fit.capacity.value).toBe(2 * 80e9);
    expect(h.bandwidth.value).toBe(6700);
    expect(h.points[0]!.energy.joules.value).toBeNull();
    expect(h.points[0]!.energy.reason).toMatch(/covers 1 of the 2 serving GPUs/);
  });

  it("a run config that does not parse: no price (its own might be in it), not the table's", async () => {
    const {spec} = await analyzedWith({hardware: {prices: [{gpu: "test-h100", kind: "owned", usd_per_gpu_hour: 1}]}});
    const files = bundleFiles(spec);
    // the price written as a string: the whole config fails its schema
    files["config.resolved.yaml"] = files["config.resolved.yaml"]!.replace(
      "usd_per_gpu_hour: 1",
      'usd_per_gpu_hour: "1"'
    );
    const report = await analyzeFiles(files, {hardware: DATA});
    expect(report.issues.some((i) => i.file === "config.resolved.yaml" && i.severity === "error")).toBe(true);
    const c = report.hardware!.points[0]!.cost;
    expect(c.price.value).toBeNull();
    expect(c.price.reason).toMatch(/run config did not parse/);
    expect(c.perMOutput.value).toBeNull();
  });

  it("a card or price id the catalogue does not know is a warning at its line, not ignored in silence", async () => {
    const {spec, report} = await analyzedWith({
      hardware: {prices: [{gpu: "h100-typo", kind: "owned", usd_per_gpu_hour: 1}], gpu: "no-such-card"}
    });
    const found = report.issues.filter((i) => i.code === "hardware_unknown_id");
    expect(found.map((i) => i.path).sort()).toEqual(["hardware.gpu", "hardware.prices.0.gpu"]);
    const text = bundleFiles(spec)["config.resolved.yaml"]!.split("\n");
    for (const i of found) {
      expect(i.severity).toBe("warning");
      expect(i.file).toBe("config.resolved.yaml");
      expect(text[i.line! - 1]).toMatch(i.path === "hardware.gpu" ? /no-such-card/ : /h100-typo/);
    }
    expect(report.hardware!.points[0]!.cost.price.value).toBe(4); // the table's median stands, as the warning says
  });
});
