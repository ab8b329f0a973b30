import type {GpuSample} from "../../src/analysis/schema/records.ts";
import type {Exec} from "../effects.ts";

type GpuReading = GpuSample["gpus"][number];

export const GPU_QUERY =
  "index,uuid,name,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu,clocks.sm,clocks.mem";

/** A CSV cell from nvidia-smi as a number; "[N/A]", "N/A", "[Not Supported]" and blanks are null, never 0. */
export function smiNumber(cell: string | undefined): number | null {
  if (cell === undefined) return null;
  const t = cell.trim();
  if (t === "" || /^\[?(N\/A|Not Supported|Unknown Error|GPU requires reset)\]?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

const smiText = (cell: string | undefined): string | null => {
  const t = cell?.trim() ?? "";
  return t === "" || /^\[?N\/A\]?$/i.test(t) ? null : t;
};

/** Parses `nvidia-smi --query-gpu=GPU_QUERY --format=csv,noheader,nounits`. */
export function parseGpuCsv(stdout: string): GpuReading[] {
  const out: GpuReading[] = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    const c = line.split(",");
    const index = smiNumber(c[0]);
    if (index === null) continue;
    out.push({
      index,
      uuid: smiText(c[1]),
      utilPct: smiNumber(c[3]),
      memUsedMiB: smiNumber(c[4]),
      memTotalMiB: smiNumber(c[5]),
      powerW: smiNumber(c[6]),
      tempC: smiNumber(c[7]),
      smClockMHz: smiNumber(c[8]),
      memClockMHz: smiNumber(c[9])
    });
  }
  return out;
}

export interface GpuProbe {
  ok: boolean;
  notFound: boolean;
  error: string | null;
  gpus: GpuReading[];
}

/** One nvidia-smi sample. A missing tool or a failing call is reported as such, never as zeros. */
export async function sampleGpus(exec: Exec, timeoutMs = 5000): Promise<GpuProbe> {
  const r = await exec("nvidia-smi", [`--query-gpu=${GPU_QUERY}`, "--format=csv,noheader,nounits"], {timeoutMs});
  if (!r.ok) return {ok: false, notFound: r.notFound, error: r.notFound ? "nvidia-smi not found" : r.error, gpus: []};
  if (r.code !== 0)
    return {
      ok: false,
      notFound: false,
      error: `nvidia-smi exited ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 200)}`,
      gpus: []
    };
  const gpus = parseGpuCsv(r.stdout);
  if (gpus.length === 0)
    return {ok: false, notFound: false, error: `nvidia-smi listed no GPU: ${r.stdout.trim().slice(0, 200)}`, gpus};
  return {ok: true, notFound: false, error: null, gpus};
}
