import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";
import {parse} from "yaml";

import {GpuCatalogue, type GpuEntry} from "../../../src/analysis/schema/hardware.ts";

/**
 * The shipped GPU catalogue (configs/hardware/gpus.yaml). The spot values below are written by hand from
 * the source documents the catalogue cites, not read back from the YAML: a typo in the data fails here.
 */
const text = readFileSync(new URL("../../../configs/hardware/gpus.yaml", import.meta.url), "utf8");
const parsed = GpuCatalogue.safeParse(parse(text));

function catalogue() {
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  return parsed.data;
}
const gpu = (id: string): GpuEntry => {
  const g = catalogue().gpus.find((x) => x.id === id);
  if (g === undefined) throw new Error(`no catalogue entry ${id}`);
  return g;
};
/** The matcher the catalogue is ordered for: first entry whose lowercased substring occurs in the name. */
const matchName = (name: string) =>
  catalogue().gpus.find((g) => g.match.some((m) => name.toLowerCase().includes(m.toLowerCase())))?.id;

const minimal = (value: unknown) => ({
  version: 1,
  updated: "2026-12",
  sources: {doc: {title: "A datasheet", publisher: "NVIDIA", date: "2024"}},
  gpus: [{id: "x", vendor: "nvidia", name: "GPU X", match: ["GPU X"], memory_gb: value}]
});

describe("configs/hardware/gpus.yaml", () => {
  it("validates against GpuCatalogue", () => {
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("lists every card the catalogue promises", () => {
    const ids = catalogue().gpus.map((g) => g.id);
    for (const id of [
      "h100-sxm",
      "h100-pcie",
      "h100-nvl",
      "h200-sxm",
      "h200-nvl",
      "b200",
      "gb200",
      "a100-sxm4-40gb",
      "a100-sxm4-80gb",
      "a100-pcie-40gb",
      "a100-pcie-80gb",
      "l40s",
      "l4",
      "a10g",
      "rtx-4090",
      "rtx-4060",
      "v100",
      "mi300x",
      "mi325x",
      "mi355x"
    ])
      expect(ids).toContain(id);
  });

  it("rejects a value without its source, and a source id that is not listed", () => {
    expect(GpuCatalogue.safeParse(minimal({value: 80, source: "doc"})).success).toBe(true);
    expect(GpuCatalogue.safeParse(minimal({value: 80})).success).toBe(false);
    const unknown = GpuCatalogue.safeParse(minimal({value: 80, source: "nowhere"}));
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues.map((i) => i.message)).toContain('unknown source "nowhere"');
  });

  it("holds the figures the cited documents print", () => {
    // H100 SXM: "GPU memory bandwidth 3,350 GB/sec"; FP8 "3,958 TFLOPS*" with sparsity, so 1,979 dense.
    expect(gpu("h100-sxm").memory_bandwidth_gbs?.value).toBe(3350);
    expect(gpu("h100-sxm").dense_tflops.fp8?.value).toBe(1979);
    // H100 PCIe product brief: "maximum thermal design power (TDP) level of 350 W".
    expect(gpu("h100-pcie").tdp_w?.value).toBe(350);
    // ROCm MI300 microarchitecture: Matrix FP8 2614.9 TFLOPS, "5.3 TB per second"; VRAM 192.
    expect(gpu("mi300x").dense_tflops.fp8?.value).toBe(2614.9);
    expect(gpu("mi300x").memory_bandwidth_gbs?.value).toBe(5300);
    expect(gpu("mi300x").memory_gb?.value).toBe(192);
    // NVIDIA MIG user guide: B200 180GB, GB200 186GB, H200-SXM5 141GB.
    expect(gpu("b200").memory_gb?.value).toBe(180);
    expect(gpu("gb200").memory_gb?.value).toBe(186);
    // NVIDIA's MLPerf v4.1 H200 system description: "H200 TGP 700W".
    expect(gpu("h200-sxm").tdp_w?.value).toBe(700);
    // L40S table: FP8 Tensor Core "733 | 1,466*" (dense | with sparsity).
    expect(gpu("l40s").dense_tflops.fp8?.value).toBe(733);
  });

  it("leaves A10G compute unknown rather than borrowing A10 figures", () => {
    expect(gpu("a10g").dense_tflops).toEqual({});
    expect(gpu("a10g").memory_bandwidth_gbs).toBeUndefined();
  });

  it("is ordered so the first matching entry is the right card", () => {
    expect(matchName("NVIDIA H100 80GB HBM3")).toBe("h100-sxm");
    expect(matchName("NVIDIA H100 PCIe")).toBe("h100-pcie");
    expect(matchName("NVIDIA H100 NVL")).toBe("h100-nvl");
    expect(matchName("NVIDIA H200")).toBe("h200-sxm");
    expect(matchName("NVIDIA H200 NVL")).toBe("h200-nvl");
    expect(matchName("NVIDIA B200")).toBe("b200");
    expect(matchName("NVIDIA GB200")).toBe("gb200");
    expect(matchName("NVIDIA A100-SXM4-80GB")).toBe("a100-sxm4-80gb");
    expect(matchName("NVIDIA A100-SXM4-40GB")).toBe("a100-sxm4-40gb");
    expect(matchName("NVIDIA A100-PCIE-40GB")).toBe("a100-pcie-40gb");
    expect(matchName("NVIDIA A100 80GB PCIe")).toBe("a100-pcie-80gb");
    expect(matchName("NVIDIA L40S")).toBe("l40s");
    expect(matchName("NVIDIA L4")).toBe("l4");
    expect(matchName("NVIDIA A10G")).toBe("a10g");
    expect(matchName("NVIDIA GeForce RTX 4090")).toBe("rtx-4090");
    expect(matchName("NVIDIA GeForce RTX 4060")).toBe("rtx-4060");
    expect(matchName("Tesla V100-SXM2-32GB")).toBe("v100");
    expect(matchName("Tesla V100-PCIE-16GB")).toBe("v100");
    expect(matchName("AMD Instinct MI300X")).toBe("mi300x");
    expect(matchName("AMD Instinct MI325X")).toBe("mi325x");
    expect(matchName("AMD Instinct MI355X")).toBe("mi355x");
  });

  it("marks every value read from a secondary source", () => {
    const secondary = new Set(
      Object.entries(catalogue().sources)
        .filter(([, s]) => s.publisher.includes("secondary source"))
        .map(([id]) => id)
    );
    const unmarked: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (v === null || typeof v !== "object") return;
      const o = v as Record<string, unknown>;
      if (typeof o.source === "string" && secondary.has(o.source) && !String(o.note).includes("secondary source"))
        unmarked.push(path);
      for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
    };
    catalogue().gpus.forEach((g) => walk(g, g.id));
    expect(unmarked).toEqual([]);
  });
});
