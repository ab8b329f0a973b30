import type {Environment} from "../../src/analysis/schema/manifest.ts";
import type {Exec, ExecResult} from "../effects.ts";
import {smiNumber} from "../telemetry/gpu.ts";
import {noGpu} from "./noGpu.ts";

const TIMEOUT_MS = 10_000;
const FORMAT = "--format=csv,noheader,nounits";

/** What every driver answers (compute_cap aside, which older drivers reject). */
const BASE_FIELDS = ["index", "name", "uuid", "memory.total", "power.limit", "compute_cap", "driver_version"];
/** Clocks now and at most, the PCIe link at most, the largest power limit: newer drivers. */
const EXTRA_FIELDS = [
  "clocks.sm",
  "clocks.mem",
  "clocks.max.sm",
  "clocks.max.mem",
  "pcie.link.gen.max",
  "pcie.link.width.max",
  "power.max_limit"
];

type Query = {ok: true; fields: string[]; stdout: string} | {ok: false; notFound: boolean; reason: string};

const exitText = (r: ExecResult & {ok: true}) =>
  `nvidia-smi exited ${r.code}: ${(r.stderr.trim() || r.stdout.trim()).slice(0, 200)}`;

/**
 * The fields to ask next after nvidia-smi rejected `fields`: without the fields it named as invalid
 * ("Field "x" is not a valid field to query."), else without the newer fields, else without compute_cap.
 */
export function narrowerQuery(fields: readonly string[], answer: string): string[] | null {
  const named = [...answer.matchAll(/Field "([^"]+)" is not a valid field/g)]
    .map((m) => m[1]!)
    .filter((f) => f !== "index" && fields.includes(f));
  if (named.length > 0) return fields.filter((f) => !named.includes(f));
  if (fields.some((f) => EXTRA_FIELDS.includes(f))) return fields.filter((f) => !EXTRA_FIELDS.includes(f));
  if (fields.includes("compute_cap")) return fields.filter((f) => f !== "compute_cap");
  return null;
}

/** `--query-gpu` with every field, narrowed until the driver accepts it. */
async function queryGpus(exec: Exec): Promise<Query> {
  let fields = [...BASE_FIELDS, ...EXTRA_FIELDS];
  for (;;) {
    const r = await exec("nvidia-smi", [`--query-gpu=${fields.join(",")}`, FORMAT], {timeoutMs: TIMEOUT_MS});
    if (!r.ok) return {ok: false, notFound: r.notFound, reason: r.notFound ? "nvidia-smi not found" : r.error};
    if (r.code === 0) return {ok: true, fields, stdout: r.stdout};
    const next = narrowerQuery(fields, `${r.stdout}\n${r.stderr}`);
    if (next === null) return {ok: false, notFound: false, reason: exitText(r)};
    fields = next;
  }
}

/** One device per CSV line; a cell nvidia-smi could not read ("[N/A]", "[Not Supported]") is null, never 0. */
export function parseGpuInfoCsv(fields: readonly string[], stdout: string): Environment["gpu"]["devices"] {
  const devices: Environment["gpu"]["devices"] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    const cells = line.split(",");
    const text = (name: string) => {
      const i = fields.indexOf(name);
      return i === -1 ? undefined : cells[i]?.trim();
    };
    const num = (name: string) => smiNumber(text(name));
    const index = num("index");
    if (index === null) continue;
    const cc = text("compute_cap");
    devices.push({
      index,
      name: text("name") || "unknown",
      uuid: text("uuid") || null,
      memoryTotalMiB: num("memory.total"),
      powerLimitW: num("power.limit"),
      computeCapability: cc && !/N\/A/.test(cc) ? cc : null,
      vendor: "nvidia",
      clocks: {
        smMHz: num("clocks.sm"),
        memMHz: num("clocks.mem"),
        smMaxMHz: num("clocks.max.sm"),
        memMaxMHz: num("clocks.max.mem")
      },
      pcie: {generation: num("pcie.link.gen.max"), width: num("pcie.link.width.max")},
      powerMaxW: num("power.max_limit")
    });
  }
  return devices;
}

const rawOrError = (r: ExecResult): {raw: string | null; error: string | null} => {
  if (!r.ok) return {raw: null, error: r.error};
  if (r.code !== 0) return {raw: null, error: exitText(r)};
  return {raw: r.stdout.trimEnd(), error: null};
};

/**
 * GPUs from nvidia-smi: devices with clocks, PCIe link and power limits; driver and CUDA versions; raw
 * `nvidia-smi topo -m` and `topo -p2p r`. `notFound` when the tool is not on PATH (the caller tries AMD's).
 */
export async function nvidiaGpus(exec: Exec): Promise<{notFound: true} | {notFound: false; gpu: Environment["gpu"]}> {
  const q = await queryGpus(exec);
  if (!q.ok) return q.notFound ? {notFound: true} : {notFound: false, gpu: noGpu(q.reason, "nvidia-smi")};
  const devices = parseGpuInfoCsv(q.fields, q.stdout);
  const driverCol = q.fields.indexOf("driver_version");
  const firstLine = q.stdout.split("\n").find((l) => l.trim()) ?? "";
  const driverVersion = driverCol === -1 ? null : firstLine.split(",")[driverCol]?.trim() || null;
  const plain = await exec("nvidia-smi", [], {timeoutMs: TIMEOUT_MS});
  const cuda = plain.ok ? (/CUDA Version:\s*([0-9.]+)/.exec(plain.stdout)?.[1] ?? null) : null;
  const topo = rawOrError(await exec("nvidia-smi", ["topo", "-m"], {timeoutMs: TIMEOUT_MS}));
  const p2p = rawOrError(await exec("nvidia-smi", ["topo", "-p2p", "r"], {timeoutMs: TIMEOUT_MS}));
  return {
    notFound: false,
    gpu: {
      available: devices.length > 0,
      reason: devices.length > 0 ? null : "nvidia-smi listed no GPU",
      devices,
      driverVersion,
      cudaVersion: cuda,
      topology: topo.raw,
      tool: "nvidia-smi",
      p2p,
      raw: null
    }
  };
}
