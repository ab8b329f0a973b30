import {join} from "node:path";

import {afterEach, beforeEach, describe, expect, it} from "vitest";

import {Environment} from "../../../src/analysis/schema/manifest.ts";
import {parseAmdSmiStatic, parseRocmSmi, unitValue} from "../../../collector/env/amd.ts";
import {gpuInfo} from "../../../collector/env/host.ts";
import {narrowerQuery} from "../../../collector/env/nvidia.ts";
import {realExec} from "../../../collector/effects.ts";

/**
 * The real exec effect against fake tools (test/fixtures/smi/*): PATH holds only the fixture folders a test
 * names, so a real nvidia-smi or amd-smi on this machine is never found.
 */
const SMI = join(import.meta.dirname, "../../fixtures/smi");
const saved = {path: process.env.PATH, mode: process.env.FAKE_SMI_MODE};
function tools(mode: string, ...dirs: string[]): void {
  process.env.PATH = dirs.length ? dirs.map((d) => join(SMI, d)).join(":") : join(SMI, "none");
  process.env.FAKE_SMI_MODE = mode;
}
beforeEach(() => tools(""));
afterEach(() => {
  process.env.PATH = saved.path;
  if (saved.mode === undefined) delete process.env.FAKE_SMI_MODE;
  else process.env.FAKE_SMI_MODE = saved.mode;
});

/** Every answer must fit the manifest's schema (strict: no stray field). */
const GpuSchema = Environment.shape.gpu;

describe("gpuInfo with nvidia-smi", () => {
  it("lists devices with clocks, PCIe link and power limits; [N/A] clocks are null, never 0", async () => {
    tools("", "nvidia");
    const gpu = await gpuInfo(realExec);
    expect(GpuSchema.safeParse(gpu).success).toBe(true);
    expect(gpu).toMatchObject({available: true, reason: null, tool: "nvidia-smi", raw: null});
    expect(gpu.driverVersion).toBe("550.54.15");
    expect(gpu.cudaVersion).toBe("12.4");
    expect(gpu.devices).toHaveLength(2);
    expect(gpu.devices[0]).toEqual({
      index: 0,
      name: "NVIDIA H100 80GB HBM3",
      uuid: "GPU-6c4a2f1e-0d3b-4c55-9a1e-2b7f0c9d8e11",
      memoryTotalMiB: 81559,
      powerLimitW: 700,
      computeCapability: "9.0",
      vendor: "nvidia",
      clocks: {smMHz: 1980, memMHz: 2619, smMaxMHz: 1980, memMaxMHz: 2619},
      pcie: {generation: 5, width: 16},
      powerMaxW: 700
    });
    expect(gpu.devices[1]!.clocks).toEqual({smMHz: null, memMHz: null, smMaxMHz: 1980, memMaxMHz: 2619});
  });

  it("keeps topo -m and topo -p2p r as raw text", async () => {
    tools("", "nvidia");
    const gpu = await gpuInfo(realExec);
    expect(gpu.topology).toMatch(/^\tGPU0\tGPU1\tCPU Affinity/);
    expect(gpu.topology).toContain("GPU0\t X \tNV18");
    expect(gpu.p2p).toEqual({raw: expect.stringContaining(" GPU0\tX\tOK") as string, error: null});
    expect(gpu.p2p!.raw).toContain("CNS  = Chipset not supported");
  });

  it("an older driver that rejects compute_cap by name: asked again without it, the other fields kept", async () => {
    tools("old-driver", "nvidia");
    const gpu = await gpuInfo(realExec);
    expect(gpu.available).toBe(true);
    expect(gpu.devices[0]).toMatchObject({computeCapability: null, memoryTotalMiB: 81559, powerMaxW: 700});
    expect(gpu.devices[0]!.clocks).toEqual({smMHz: 1980, memMHz: 2619, smMaxMHz: 1980, memMaxMHz: 2619});
  });

  it("a driver that rejects the newer fields without naming one: the base query, newer fields null", async () => {
    tools("terse", "nvidia");
    const gpu = await gpuInfo(realExec);
    expect(gpu.devices[0]).toMatchObject({computeCapability: "9.0", powerLimitW: 700, powerMaxW: null});
    expect(gpu.devices[0]!.clocks).toEqual({smMHz: null, memMHz: null, smMaxMHz: null, memMaxMHz: null});
    expect(gpu.p2p).toEqual({raw: null, error: expect.stringMatching(/^nvidia-smi exited 2: Invalid combination/)});
  });

  it("narrowerQuery drops named fields first, then the newer ones, then compute_cap, then gives up", () => {
    const all = ["index", "name", "compute_cap", "clocks.sm", "power.max_limit"];
    expect(narrowerQuery(all, 'Field "power.max_limit" is not a valid field to query.')).toEqual(all.slice(0, 4));
    expect(narrowerQuery(all, "Invalid combination")).toEqual(["index", "name", "compute_cap"]);
    expect(narrowerQuery(["index", "name", "compute_cap"], "")).toEqual(["index", "name"]);
    expect(narrowerQuery(["index", "name"], 'Field "index" is not a valid field to query.')).toBeNull();
  });
});

describe("gpuInfo with AMD's tools", () => {
  it("nvidia-smi missing, amd-smi present: AMD devices, the raw JSON kept", async () => {
    tools("", "amd");
    const gpu = await gpuInfo(realExec);
    expect(GpuSchema.safeParse(gpu).success).toBe(true);
    expect(gpu).toMatchObject({available: true, reason: null, tool: "amd-smi", driverVersion: "6.10.10"});
    expect(gpu.devices).toEqual([
      {
        index: 0,
        name: "AMD Instinct MI300A",
        uuid: null,
        memoryTotalMiB: 96434,
        powerLimitW: 550,
        computeCapability: "gfx942",
        vendor: "amd",
        clocks: {smMHz: null, memMHz: null, smMaxMHz: 903, memMaxMHz: 1300},
        pcie: {generation: 5, width: 16},
        powerMaxW: 550
      }
    ]);
    expect(JSON.parse(gpu.raw!)).toMatchObject({gpu_data: [{asic: {market_name: "AMD Instinct MI300A"}}]});
  });

  it("amd-smi failing: rocm-smi's cards, memory in MiB", async () => {
    tools("amd-fails", "amd");
    const gpu = await gpuInfo(realExec);
    expect(GpuSchema.safeParse(gpu).success).toBe(true);
    expect(gpu).toMatchObject({available: true, tool: "rocm-smi"});
    expect(gpu.devices.map((d) => [d.index, d.name, d.memoryTotalMiB, d.computeCapability, d.vendor])).toEqual([
      [0, "AMD Instinct MI210", 65520, "gfx90a", "amd"],
      [1, "AMD Instinct MI210", 65520, "gfx90a", "amd"]
    ]);
  });

  it("no tool at all: unavailable with the reason", async () => {
    tools("");
    const gpu = await gpuInfo(realExec);
    expect(gpu).toEqual({
      available: false,
      reason: "no nvidia-smi, amd-smi or rocm-smi on PATH",
      devices: [],
      driverVersion: null,
      cudaVersion: null,
      topology: null,
      tool: null
    });
    expect(GpuSchema.safeParse(gpu).success).toBe(true);
  });

  it("reads both amd-smi JSON layouts and the unit forms AMD's tools print", () => {
    const entry = {gpu: 3, asic: {market_name: "AMD Instinct MI300X"}, vram: {size: "196592 MB"}};
    expect(parseAmdSmiStatic(JSON.stringify([entry]))!.devices[0]).toMatchObject({index: 3, memoryTotalMiB: 196592});
    expect(parseAmdSmiStatic(JSON.stringify({gpu_data: [entry]}))!.devices).toHaveLength(1);
    expect(parseAmdSmiStatic("not json")).toBeNull();
    expect(parseRocmSmi("{}")).toEqual([]);
    expect([unitValue({value: 32, unit: "GT/s"}), unitValue("550 W"), unitValue("N/A"), unitValue(7)]).toEqual([
      {value: 32, unit: "GT/s"},
      {value: 550, unit: "W"},
      null,
      {value: 7, unit: ""}
    ]);
  });
});
