import {readFileSync} from "node:fs";
import {describe, expect, it} from "vitest";
import {parse} from "yaml";

import {EngineMatrix, PriceTable} from "../../../src/analysis/schema/hardware.ts";

const read = (name: string): unknown =>
  parse(readFileSync(new URL(`../../../configs/hardware/${name}`, import.meta.url), "utf8"));

/** Every price names a card of the catalogue (read from gpus.yaml itself, not from a list kept here). */
const GPU_IDS = (read("gpus.yaml") as {gpus: {id: string}[]}).gpus.map((g) => g.id);

const ARCHITECTURES = ["Volta", "Turing", "Ampere", "Ada Lovelace", "Hopper", "Blackwell", "CDNA 3", "CDNA 4"];

function prices(): PriceTable {
  const r = PriceTable.safeParse(read("prices.yaml"));
  if (!r.success) throw new Error(JSON.stringify(r.error.issues, null, 2));
  return r.data;
}

function engines(): EngineMatrix {
  const r = EngineMatrix.safeParse(read("engines.yaml"));
  if (!r.success) throw new Error(JSON.stringify(r.error.issues, null, 2));
  return r.data;
}

function price(gpu: string, provider: string, kind = "on_demand") {
  const rows = prices().prices.filter((p) => p.gpu === gpu && p.provider === provider && p.kind === kind);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

function support(engine: string, feature: string) {
  const rows = engines().features.filter((f) => f.engine === engine && f.feature === feature);
  expect(rows).toHaveLength(1);
  return rows[0]!.by_architecture;
}

const minimalTable = {
  version: 1,
  date: "2026-11",
  currency: "USD",
  sources: {aws: {title: "EC2 pricing", publisher: "AWS", date: "2026-11"}}
};

describe("configs/hardware/prices.yaml", () => {
  it("validates against PriceTable", () => {
    expect(prices().prices.length).toBeGreaterThan(0);
  });

  it("prices only the listed GPU catalogue ids", () => {
    for (const p of prices().prices) expect(GPU_IDS).toContain(p.gpu);
  });

  it("gives every row a source that is listed, and a derivation wherever a price was divided", () => {
    const t = prices();
    for (const p of t.prices) {
      expect(p.source).toBeDefined();
      expect(Object.keys(t.sources)).toContain(p.source);
      if (/÷/.test(p.derivation ?? "")) expect(p.derivation).toMatch(/÷ \d+ GPUs/);
    }
  });

  it("ships no owned price (no source gave an amortised $/GPU-hour)", () => {
    expect(prices().prices.filter((p) => p.kind === "owned")).toEqual([]);
  });

  it("rejects a shipped row without a source", () => {
    const bad = {
      ...minimalTable,
      prices: [{gpu: "h100-sxm", kind: "on_demand", usd_per_gpu_hour: 6.88, provider: "AWS"}]
    };
    const r = PriceTable.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain("a shipped price needs its source");
  });

  it("rejects a row whose source id is not in sources", () => {
    const row = {gpu: "h100-sxm", kind: "on_demand", usd_per_gpu_hour: 6.88, provider: "AWS", source: "azure"};
    const r = PriceTable.safeParse({...minimalTable, prices: [row]});
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('unknown source "azure"');
  });

  // Expected values written by hand from the source text.
  it("AWS: p5.48xlarge is $55.04/h in us-east-1 → 55.04 / 8 = $6.88 per H100 SXM GPU-hour", () => {
    const p = price("h100-sxm", "AWS");
    expect(p.usd_per_gpu_hour).toBeCloseTo(55.04 / 8, 6);
    expect(p.usd_per_gpu_hour).toBe(6.88);
    expect(p.derivation).toContain("us-east-1");
  });

  it("AWS: p4d.24xlarge is $21.957642/h → 21.957642 / 8 ≈ $2.7447 per A100 40 GB GPU-hour", () => {
    expect(price("a100-sxm4-40gb", "AWS").usd_per_gpu_hour).toBeCloseTo(21.957642 / 8, 4);
  });

  it("CoreWeave: a GB200 NVL72 instance (4 GPUs) is $42.00/h → 42 / 4 = $10.50 per GPU-hour", () => {
    expect(price("gb200", "CoreWeave").usd_per_gpu_hour).toBe(10.5);
  });

  it("CoreWeave: an HGX H200 instance (8 GPUs) is $50.44/h → 50.44 / 8 = $6.305 per GPU-hour", () => {
    expect(price("h200-sxm", "CoreWeave").usd_per_gpu_hour).toBeCloseTo(50.44 / 8, 6);
  });

  it("Lambda: 8× NVIDIA B200 SXM6 is listed at $6.69 per GPU per hour", () => {
    expect(price("b200", "Lambda").usd_per_gpu_hour).toBe(6.69);
  });

  it("Hyperstack: reserved H100 SXM from $2.72 per GPU-hour, below its $3.20 on-demand price", () => {
    expect(price("h100-sxm", "Hyperstack", "reserved").usd_per_gpu_hour).toBe(2.72);
    expect(price("h100-sxm", "Hyperstack").usd_per_gpu_hour).toBe(3.2);
  });
});

describe("configs/hardware/engines.yaml", () => {
  it("validates against EngineMatrix", () => {
    expect(engines().features.length).toBeGreaterThan(0);
  });

  it("keys architectures by the catalogue's names and names a version for every row", () => {
    for (const f of engines().features) {
      expect(["vllm", "sglang", "llama.cpp", "tgi"]).toContain(f.engine);
      expect(f.version.length).toBeGreaterThan(0);
      for (const arch of Object.keys(f.by_architecture)) expect(ARCHITECTURES).toContain(arch);
    }
  });

  it("rejects a feature row whose source id is not in sources", () => {
    const bad = {
      version: 1,
      updated: "2026-12",
      sources: {},
      features: [
        {
          engine: "vllm",
          version: "v0.15.1",
          feature: "awq_int4",
          label: "AWQ",
          source: "vllm-docs",
          by_architecture: {Hopper: "yes"}
        }
      ]
    };
    const r = EngineMatrix.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('unknown source "vllm-docs"');
  });

  // Facts read by hand from the cited docs.
  it("vLLM FP8 W8A8: compute capability >= 8.9 (Ada, Hopper, Blackwell); Ampere only as weight-only W8A16", () => {
    const s = support("vllm", "fp8_weights");
    expect(s["Ada Lovelace"]).toBe("yes");
    expect(s["Hopper"]).toBe("yes");
    expect(s["Blackwell"]).toBe("yes");
    expect(s["Ampere"]).toBe("no");
  });

  it("vLLM's quantization table: AWQ ❌ on Volta and on AMD GPUs, ✅ on Turing through Hopper", () => {
    const s = support("vllm", "awq_int4");
    expect(s["Volta"]).toBe("no");
    expect(s["CDNA 3"]).toBe("no");
    expect(s["Turing"]).toBe("yes");
    expect(s["Hopper"]).toBe("yes");
    expect(s["Blackwell"]).toBeUndefined();
  });

  it("vLLM FLASH_ATTN needs compute capability >= 8.0: not on Turing (7.5)", () => {
    const s = support("vllm", "flash_attention");
    expect(s["Turing"]).toBe("no");
    expect(s["Ampere"]).toBe("yes");
  });

  it("SGLang modelopt_fp4 (NVFP4) is Blackwell/SM100+ only on NVIDIA; petit_nvfp4 covers MI300X/MI325X", () => {
    const s = support("sglang", "nvfp4");
    expect(s["Blackwell"]).toBe("yes");
    expect(s["Hopper"]).toBe("no");
    expect(s["CDNA 3"]).toBe("yes");
  });

  it("TGI on ROCm does not load AWQ checkpoints", () => {
    expect(support("tgi", "awq_int4")["CDNA 3"]).toBe("no");
  });
});
