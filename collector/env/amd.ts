import type {Environment} from "../../src/analysis/schema/manifest.ts";
import type {Exec} from "../effects.ts";
import {boundedRaw, noGpu} from "./noGpu.ts";

const TIMEOUT_MS = 20_000;
type Device = Environment["gpu"]["devices"][number];
type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
const text = (v: unknown): string | null =>
  typeof v === "string" && v.trim() && !/^N\/A$/i.test(v.trim()) ? v.trim() : null;

/**
 * A value the AMD tools print with a unit: `{"value": 196592, "unit": "MB"}`, `"196592 MB"` or a bare number.
 * Returns the number and its unit ("" when none), or null ("N/A").
 */
export function unitValue(v: unknown): {value: number; unit: string} | null {
  const o = obj(v);
  if (o) {
    const inner = unitValue(o.value);
    return inner === null ? null : {value: inner.value, unit: typeof o.unit === "string" ? o.unit : inner.unit};
  }
  if (typeof v === "number") return Number.isFinite(v) ? {value: v, unit: ""} : null;
  if (typeof v !== "string") return null;
  const m = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*([A-Za-z/°]*)\s*$/.exec(v);
  return m ? {value: Number(m[1]), unit: m[2] ?? ""} : null;
}

/** MiB from a size in B, KB, MB or GB (AMD's MB are MiB: bytes / 2^20); a bare number is MB. */
function mebibytes(v: unknown): number | null {
  const u = unitValue(v);
  if (u === null) return null;
  const scale: Record<string, number> = {
    b: 2 ** -20,
    kb: 2 ** -10,
    kib: 2 ** -10,
    "": 1,
    mb: 1,
    mib: 1,
    gb: 1024,
    gib: 1024
  };
  const f = scale[u.unit.toLowerCase()];
  return f === undefined ? null : Math.round(u.value * f);
}

const watts = (v: unknown): number | null => {
  const u = unitValue(v);
  return u !== null && (u.unit === "" || u.unit.toUpperCase() === "W") ? u.value : null;
};

/** The highest of a clock's frequency levels, MHz ({"level 0": "700 MHz", …} or a list). */
function maxLevelMHz(clock: unknown): number | null {
  const levels = obj(clock)?.frequency_levels ?? obj(clock)?.frequency ?? null;
  const values = Array.isArray(levels) ? levels : Object.values(obj(levels) ?? {});
  let best: number | null = null;
  for (const l of values) {
    const u = unitValue(l);
    if (u !== null && (u.unit === "" || u.unit.toLowerCase() === "mhz")) best = Math.max(best ?? u.value, u.value);
  }
  return best;
}

/** "Gen 5" → 5. */
const pcieGen = (v: unknown): number | null => {
  const m = /([0-9]+)/.exec(text(v) ?? "");
  return m ? Number(m[1]) : null;
};

/** One `amd-smi static --json` entry as a device (target_graphics_version, e.g. gfx942, as the compute capability). */
function amdSmiDevice(e: Json, i: number): Device {
  const asic = obj(e.asic) ?? {};
  const bus = obj(e.bus) ?? {};
  const limit = obj(e.limit) ?? {};
  const clock = obj(e.clock) ?? {};
  return {
    index: typeof e.gpu === "number" ? e.gpu : i,
    name: text(asic.market_name) ?? text(obj(e.board)?.product_name) ?? "unknown",
    uuid: text(e.uuid) ?? text(asic.uuid),
    memoryTotalMiB: mebibytes(obj(e.vram)?.size),
    powerLimitW: watts(limit.socket_power ?? limit.power_cap),
    computeCapability: text(asic.target_graphics_version),
    vendor: "amd",
    clocks: {smMHz: null, memMHz: null, smMaxMHz: maxLevelMHz(clock.sys), memMaxMHz: maxLevelMHz(clock.mem)},
    pcie: {
      generation: pcieGen(bus.pcie_interface_version),
      width: unitValue(bus.max_pcie_width)?.value ?? null
    },
    powerMaxW: watts(limit.max_power)
  };
}

/**
 * Devices of `amd-smi static --json` and the first one's driver version: a list (amd-smi before ROCm 6.4) or
 * `{"gpu_data": [...]}` (since). Null when the answer is not such JSON.
 */
export function parseAmdSmiStatic(stdout: string): {devices: Device[]; driverVersion: string | null} | null {
  let j: unknown;
  try {
    j = JSON.parse(stdout);
  } catch {
    return null;
  }
  const list = Array.isArray(j) ? j : obj(j)?.gpu_data;
  if (!Array.isArray(list)) return null;
  const entries = list.flatMap((e) => {
    const o = obj(e);
    return o && "gpu" in o ? [o] : [];
  });
  return {
    devices: entries.map((e, i) => amdSmiDevice(e, i)),
    driverVersion: text(obj(entries[0]?.driver)?.version)
  };
}

/** Devices of `rocm-smi --showproductname --showmeminfo vram --json`: {"card0": {"Card Series": …, "VRAM Total Memory (B)": …}}. */
export function parseRocmSmi(stdout: string): Device[] | null {
  let j: Json | null;
  try {
    j = obj(JSON.parse(stdout));
  } catch {
    return null;
  }
  if (j === null) return null;
  const devices: Device[] = [];
  for (const [key, v] of Object.entries(j)) {
    const m = /^card([0-9]+)$/i.exec(key);
    const card = obj(v);
    if (!m || !card) continue;
    const field = (name: string) => Object.entries(card).find(([k]) => k.toLowerCase() === name)?.[1];
    const bytes = unitValue(field("vram total memory (b)"));
    devices.push({
      index: Number(m[1]),
      name: text(field("card series")) ?? text(field("device name")) ?? text(field("card model")) ?? "unknown",
      uuid: text(field("unique id")) ?? text(field("guid")),
      memoryTotalMiB: bytes === null ? null : Math.round(bytes.value / 2 ** 20),
      powerLimitW: null,
      computeCapability: text(field("gfx version")),
      vendor: "amd"
    });
  }
  return devices.sort((a, b) => a.index - b.index);
}

const listed = (tool: "amd-smi" | "rocm-smi", devices: Device[], stdout: string, driver: string | null) => ({
  available: devices.length > 0,
  reason: devices.length > 0 ? null : `${tool} listed no GPU`,
  devices,
  driverVersion: driver,
  cudaVersion: null,
  topology: null,
  tool,
  raw: boundedRaw(stdout)
});

/**
 * GPUs from AMD's tools when nvidia-smi is absent: `amd-smi static --json`, else `rocm-smi`; the tool's raw
 * JSON is kept (bounded). Neither on PATH → unavailable with the reason.
 */
export async function amdGpus(exec: Exec): Promise<Environment["gpu"]> {
  const a = await exec("amd-smi", ["static", "--json"], {timeoutMs: TIMEOUT_MS});
  const fromAmdSmi = a.ok && a.code === 0 ? parseAmdSmiStatic(a.stdout) : null;
  if (a.ok && fromAmdSmi !== null) return listed("amd-smi", fromAmdSmi.devices, a.stdout, fromAmdSmi.driverVersion);
  const r = await exec("rocm-smi", ["--showproductname", "--showmeminfo", "vram", "--json"], {timeoutMs: TIMEOUT_MS});
  const fromRocm = r.ok ? parseRocmSmi(r.stdout) : null;
  if (r.ok && fromRocm !== null) return listed("rocm-smi", fromRocm, r.stdout, null);
  if (!a.ok && a.notFound && !r.ok && r.notFound) return noGpu("no nvidia-smi, amd-smi or rocm-smi on PATH");
  const why = (x: typeof a, tool: string) =>
    !x.ok
      ? x.error
      : x.code !== 0
        ? `${tool} exited ${x.code}: ${x.stderr.trim().slice(0, 200)}`
        : `${tool}: unreadable JSON`;
  return a.ok || !a.notFound ? noGpu(why(a, "amd-smi"), "amd-smi") : noGpu(why(r, "rocm-smi"), "rocm-smi");
}
