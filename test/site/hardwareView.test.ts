import {describe, expect, it} from "vitest";

import {parseCatalogue, parseEngines, parsePrices, type HardwareData, type Report} from "../../src/analysis/index.ts";
import {engineSupport, modelFits, SourceList} from "../../src/site/hardware.ts";

const data: HardwareData = {
  catalogue: parseCatalogue(
    `version: 1
updated: "2026"
sources:
  a: {title: "Sheet A", publisher: "Vendor", date: "2026"}
  b: {title: "Sheet B", publisher: "Vendor", date: "2025"}
gpus:
  - {id: big, vendor: nvidia, name: Big, match: [Big], architecture: {value: Hopper, source: b}, memory_gb: {value: 80, source: a}}
  - {id: small, vendor: nvidia, name: Small, match: [Small], memory_gb: {value: 16, source: a}}
`,
    "gpus.yaml"
  ),
  engines: parseEngines(
    `version: 1
updated: "2026"
sources: {d: {title: "Docs", publisher: "Project", date: "2026"}}
features:
  - {engine: vllm, version: "0.1", feature: fp8_weights, label: FP8, source: d, by_architecture: {Hopper: yes, Ampere: no}}
`,
    "engines.yaml"
  ),
  prices: parsePrices(`version: 1\ndate: "2026"\ncurrency: USD\nsources: {}\nprices: []\n`, "prices.yaml"),
  overrides: []
};

describe("source numbering on the hardware page", () => {
  it("numbers sources in order of first use and keeps two lists apart by prefix", () => {
    const s = new SourceList(data.catalogue.sources);
    expect(s.cell(data.catalogue.gpus[0]!.architecture)).toMatchObject({text: "Hopper", source: 1, anchor: "src-1"});
    expect(s.cell(data.catalogue.gpus[0]!.memory_gb, " GB")).toMatchObject({text: "80 GB", source: 2});
    expect(s.cell(data.catalogue.gpus[1]!.memory_gb, " GB")!.source).toBe(2); // same source, same number
    expect(s.cell(undefined)).toBeNull();
    expect(s.list.map((x) => x.id)).toEqual(["b", "a"]);
    expect(new SourceList(data.engines.sources, "e").number("d").anchor).toBe("src-e1");
  });
});

describe("engine support goes through the card's architecture", () => {
  const f = data.engines.features[0]!;
  it("a listed architecture answers; an unlisted or unsourced one is unknown", () => {
    expect(engineSupport(f, data.catalogue.gpus[0]!)).toBe("yes");
    expect(engineSupport(f, data.catalogue.gpus[1]!)).toBe("unknown"); // architecture not in a source
  });
});

describe("memory fit of measured models on catalogued cards", () => {
  const fact = (value: number | null, reason: string | null = null) => ({
    value,
    from: value === null ? null : "t",
    reason
  });
  const model = (weights: number | null) => ({
    name: "m",
    architecture: null,
    params: fact(8e9),
    activeParams: fact(8e9),
    weightBytes: weights === null ? fact(null, "weight size unknown") : fact(weights),
    layers: fact(32),
    kvHeads: fact(8),
    headDimK: fact(128),
    headDimV: fact(128),
    kvBytesPerElement: fact(2),
    kvBytesPerToken: fact(131072),
    experts: null
  });
  const report = (id: string, weights: number | null) =>
    ({
      bundle: id,
      provenance: {kind: "collected"},
      meta: {model: "m"},
      hardware: {model: model(weights)}
    }) as unknown as Report;

  it("16 GB of weights + 131 072 B × 4 096 tokens fits 80 GB but not 16 GB", () => {
    const {fits} = modelFits([report("r1", 16e9)], data);
    const row = (id: string) => fits[0]!.rows.find((r) => r.card.id === id)!.cells[0]!; // L 4096 × B 1
    // 16e9 + 131072 × 4096 = 16 536 870 912 bytes
    expect(row("big").totalBytes).toBe(16_536_870_912);
    expect(row("big").fits).toBe("yes");
    expect(row("small").fits).toBe("no"); // 16 GB = 16e9 bytes < 16.54e9
  });
  it("a model whose weights are unknown is listed with the reason, not fitted", () => {
    const {fits, unknown} = modelFits([report("r2", null)], data);
    expect(fits).toEqual([]);
    expect(unknown).toEqual([{model: "m", reason: "weight size unknown"}]);
  });
});
