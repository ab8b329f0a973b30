import {describe, expect, it} from "vitest";

import {
  cacheSplit,
  serverSlots,
  chosenPrice,
  matchCard,
  modelFacts,
  p2pStatus,
  parseCatalogue,
  parsePriceOverrides,
  parsePrices,
  HardwareDataError,
  type HardwareData
} from "../../../src/analysis/index.ts";
import type {Environment, RunConfig} from "../../../src/analysis/index.ts";
import {SYNTH_ENVIRONMENT} from "../../../scripts/lib/synth.ts";

const src = "{value: 1, source: s}";
const CATALOGUE = parseCatalogue(
  `version: 1
updated: "2026"
sources: {s: {title: "Sheet", publisher: "Vendor", date: "2026"}}
gpus:
  - {id: l40s, vendor: nvidia, name: L40S, match: ["NVIDIA L40S"], tdp_w: ${src}}
  - {id: l4, vendor: nvidia, name: L4, match: ["NVIDIA L4"]}
  - {id: rtx-4060, vendor: nvidia, name: RTX 4060, match: ["NVIDIA GeForce RTX 4060"]}
  - {id: h100-sxm, vendor: nvidia, name: H100 SXM, match: ["NVIDIA H100 80GB HBM3", "H100 SXM"]}
  - {id: h200-nvl, vendor: nvidia, name: H200 NVL, match: ["NVIDIA H200 NVL"]}
  - {id: h200-sxm, vendor: nvidia, name: H200, match: ["NVIDIA H200"]}
`,
  "gpus.yaml"
);

describe("matchCard: a tool's or an importer's GPU name → a catalogue card, never a near guess", () => {
  it.each([
    ["NVIDIA L40S", "l40s"],
    ["NVIDIA L4", "l4"],
    ["NVIDIA L40", null], // not an L4: whole words only
    ["NVIDIA GeForce RTX 4060", "rtx-4060"],
    ["NVIDIA GeForce RTX 4060 Ti", null], // a variant word after the name is another card
    ["NVIDIA H100 80GB HBM3", "h100-sxm"],
    ["H100-SXM-80GB", "h100-sxm"], // an importer's --hardware name
    ["NVIDIA H200 NVL", "h200-nvl"],
    ["NVIDIA H200", "h200-sxm"],
    ["h100-sxm", "h100-sxm"], // a catalogue id
    ["AMD Instinct MI300X", null],
    ["", null]
  ])("%s → %s", (name, id) => {
    expect(matchCard(CATALOGUE, name)?.id ?? null).toBe(id);
  });
});

describe("catalogue and price files: located errors", () => {
  it("an unknown source id is an error at its line", () => {
    const text = `version: 1\nupdated: "2026"\nsources: {}\ngpus:\n  - {id: x, vendor: nvidia, name: X1, match: [X1], tdp_w: {value: 300, source: nope}}\n`;
    expect(() => parseCatalogue(text, "gpus.yaml")).toThrow(HardwareDataError);
    // the value's `source` key sits at line 5, column 80 of the text above
    expect(() => parseCatalogue(text, "gpus.yaml")).toThrow(
      'gpus.yaml:5:80: gpus[0].tdp_w.source: unknown source "nope"'
    );
  });
  it("a value without a source is rejected", () => {
    expect(() =>
      parseCatalogue(
        `version: 1\nupdated: "2026"\nsources: {}\ngpus:\n  - {id: x, vendor: nvidia, name: X1, match: [X1], tdp_w: {value: 300}}\n`,
        "g.yaml"
      )
    ).toThrow(/source/);
  });
  it("a user's price file needs a positive price", () => {
    expect(() => parsePriceOverrides("prices:\n  - {gpu: h100-sxm, usd_per_gpu_hour: 0}\n", "mine.yaml")).toThrow(
      /mine\.yaml:2/
    );
  });
});

describe("p2p status: NCCL_P2P_DISABLE=1 is unknown, not no", () => {
  const raw = " \tGPU0\tGPU1\n GPU0\tX\tOK\n GPU1\tOK\tX\n";
  const env = (p2p: string | null, vars: Record<string, string> = {}): Environment => ({
    ...SYNTH_ENVIRONMENT,
    gpu: {
      ...SYNTH_ENVIRONMENT.gpu,
      devices: [0, 1].map((index) => ({
        index,
        name: "NVIDIA H100 80GB HBM3",
        uuid: null,
        memoryTotalMiB: 81559,
        powerLimitW: 700,
        computeCapability: "9.0"
      })),
      p2p: {raw: p2p, error: p2p === null ? "nvidia-smi topo -p2p r failed" : null}
    },
    extra: {env: vars}
  });
  it("all pairs OK → ok", () => expect(p2pStatus(env(raw)).status).toBe("ok"));
  it("NS pairs → not_supported", () => expect(p2pStatus(env(raw.replaceAll("OK", "NS"))).status).toBe("not_supported"));
  it("NCCL_P2P_DISABLE=1 → unknown with the reason", () => {
    const s = p2pStatus(env(raw, {NCCL_P2P_DISABLE: "1"}));
    expect(s.status).toBe("unknown");
    expect(s.reason).toMatch(/NCCL_P2P_DISABLE=1/);
  });
  it("no matrix → unknown with the tool's error", () => expect(p2pStatus(env(null)).reason).toMatch(/failed/));
});

describe("model facts from a GGUF header (TinyLlama-shaped)", () => {
  const env: Environment = {
    ...SYNTH_ENVIRONMENT,
    server: {
      ...SYNTH_ENVIRONMENT.server,
      engine: "llama.cpp",
      launchArgs: ["llama-server", "-m", "m.gguf", "-ctk", "q8_0"]
    },
    model: {
      file: {
        format: "gguf",
        path: "m.gguf",
        fileBytes: 1_170_000_000,
        tensorDataBytes: 1_169_000_000,
        metadata: {
          "general.architecture": "llama",
          "llama.block_count": 22,
          "llama.attention.head_count": 32,
          "llama.attention.head_count_kv": 4,
          "llama.embedding_length": 2048
        },
        tensorTypes: {q8_0: {tensors: 155, elements: 1_000_000_000}, f32: {tensors: 45, elements: 100_000_000}}
      },
      reason: null
    }
  };
  it("derives head_dim 2048 / 32 = 64 and the KV bytes per token from -ctk q8_0 (34/32 B) and f16 V (2 B)", () => {
    const m = modelFacts(env, null);
    expect(m.params.value).toBe(1_100_000_000);
    expect(m.weightBytes.value).toBe(1_169_000_000);
    expect(m.headDimK.value).toBe(64);
    // 22 layers × 4 heads × (64 + 64) × ((34/32 + 2) / 2) = 11 264 × 1.53125 = 17 248
    expect(m.kvBytesPerToken.value).toBeCloseTo(17248, 9);
  });
  it("no head_count_kv: the GGUF convention, as many KV heads as heads", () => {
    const {"llama.attention.head_count_kv": _, ...meta} = env.model!.file!.metadata;
    expect(
      modelFacts({...env, model: {file: {...env.model!.file!, metadata: meta}, reason: null}}, null).kvHeads.value
    ).toBe(32);
  });
  it("a per-layer head_count_kv array is unknown with the reason, not a guess", () => {
    const meta = {...env.model!.file!.metadata, "llama.attention.head_count_kv": "<array of 22 i32>"};
    const m = modelFacts({...env, model: {file: {...env.model!.file!, metadata: meta}, reason: null}}, null);
    expect(m.kvHeads.value).toBeNull();
    expect(m.kvHeads.reason).toMatch(/llama\.attention\.head_count_kv is <array of 22 i32>/);
    expect(m.kvBytesPerToken.value).toBeNull();
  });
});

describe("cacheSplit: the prefill cost of hits and misses by least squares", () => {
  const fit = (rows: [number, number, number][]) => {
    const f = {n: 0, miss: 0, hit: 0, mm: 0, hh: 0, mh: 0, mp: 0, hp: 0};
    for (const [m, h, p] of rows) {
      f.n++;
      f.miss += m;
      f.hit += h;
      f.mm += m * m;
      f.hh += h * h;
      f.mh += m * h;
      f.mp += m * p;
      f.hp += h * p;
    }
    return f;
  };
  it("exact data a = 0.2, b = 0.02 ms/token: misses' share 0.2 × 3 000 ÷ (0.2 × 3 000 + 0.02 × 2 000)", () => {
    const rows: [number, number, number][] = [
      [1000, 0, 200],
      [500, 500, 110],
      [1000, 0, 200],
      [500, 500, 110],
      [0, 1000, 20]
    ];
    const s = cacheSplit(fit(rows));
    expect("missShare" in s && s.missShare).toBeCloseTo(600 / 640, 12);
  });
  it("no hits → unknown with the reason", () =>
    expect(cacheSplit(fit([[1000, 0, 100]]))).toEqual({reason: "no prompt-cache hits in this point"}));
  it("hits always the same share of the prompt → cannot be told apart", () => {
    const rows: [number, number, number][] = Array.from({length: 6}, (_, i) => [500 + i * 10, 500 + i * 10, 60 + i]);
    expect(cacheSplit(fit(rows))).toEqual({
      reason: "cache hits and misses vary together: their costs cannot be told apart"
    });
  });
});

describe("chosenPrice: the run's price, then the build's, then the table's on-demand median", () => {
  const prices = parsePrices(
    `version: 1\ndate: "2026-11"\ncurrency: USD\nsources: {p: {title: "List", publisher: "Cloud", date: "2026"}}\nprices:\n  - {gpu: h100-sxm, kind: on_demand, usd_per_gpu_hour: 3, provider: a, source: p}\n  - {gpu: h100-sxm, kind: on_demand, usd_per_gpu_hour: 5, provider: b, source: p}\n`,
    "prices.yaml"
  );
  const data = (overrides: HardwareData["overrides"] = []): HardwareData => ({
    catalogue: CATALOGUE,
    engines: {version: 1, updated: "2026", sources: {}, features: []},
    prices,
    overrides
  });
  const config = (usd: number) =>
    ({hardware: {prices: [{gpu: "h100-sxm", kind: "owned", usd_per_gpu_hour: usd}]}}) as unknown as RunConfig;
  it("table: median of 3 and 5 = 4", () => expect(chosenPrice("h100-sxm", null, data()).price.value).toBe(4));
  it("the build's price beats the table", () =>
    expect(
      chosenPrice("h100-sxm", null, data([{gpu: "h100-sxm", kind: "owned", usd_per_gpu_hour: 1.5}])).price.value
    ).toBe(1.5));
  it("the run config's beats the build's", () =>
    expect(
      chosenPrice("h100-sxm", config(0.9), data([{gpu: "h100-sxm", kind: "owned", usd_per_gpu_hour: 1.5}])).price.value
    ).toBe(0.9));
  it("a CPU host without a price is unknown with what to do", () =>
    expect(chosenPrice("cpu-host", null, data()).price.reason).toMatch(/hardware\.prices \(gpu: cpu-host\)/));
  it("no card → unknown", () => expect(chosenPrice(null, null, data()).price.value).toBeNull());
});

describe("serverSlots: the batch a point decodes at is capped by the server's slots", () => {
  const env = (version: unknown, launchArgs: string[] | null): Environment => ({
    ...SYNTH_ENVIRONMENT,
    server: {...SYNTH_ENVIRONMENT.server, version, launchArgs}
  });
  it("llama.cpp /props total_slots, then --parallel / -np, then vLLM --max-num-seqs", () => {
    expect(serverSlots(env({"/props": {total_slots: 4}}, ["llama-server", "--parallel", "2"]))).toEqual({
      n: 4,
      from: "/props total_slots"
    });
    expect(serverSlots(env(null, ["llama-server", "-np", "2"]))?.n).toBe(2);
    expect(serverSlots(env(null, ["vllm", "serve", "m", "--max-num-seqs", "64"]))?.n).toBe(64);
    expect(serverSlots(env(null, ["vllm", "serve", "m"]))).toBeNull();
  });
});

describe("a price names a catalogued card", () => {
  const table = (gpu: string) =>
    `version: 1\ndate: "2026"\ncurrency: USD\nsources: {p: {title: "List", publisher: "Cloud", date: "2026"}}\nprices:\n  - {gpu: l4, kind: on_demand, usd_per_gpu_hour: 1, provider: a, source: p}\n  - {gpu: ${gpu}, kind: on_demand, usd_per_gpu_hour: 2, provider: b, source: p}\n`;
  it("an id the catalogue lacks is an error at its line; cpu-host is allowed", () => {
    // line 7 is the second row; "  - {gpu: " is 10 characters, so the id starts at column 11
    expect(() => parsePrices(table("a100-80gb-sxm"), "prices.yaml", CATALOGUE)).toThrow(
      'prices.yaml:7:11: prices[1].gpu: "a100-80gb-sxm" is not a catalogue id (configs/hardware/gpus.yaml) or cpu-host'
    );
    expect(parsePrices(table("cpu-host"), "prices.yaml", CATALOGUE).prices).toHaveLength(2);
    expect(() =>
      parsePriceOverrides("prices:\n  - {gpu: h100, usd_per_gpu_hour: 2}\n", "mine.yaml", CATALOGUE)
    ).toThrow(/mine\.yaml:2:\d+: prices\[0\]\.gpu: "h100" is not a catalogue id/);
  });
});
