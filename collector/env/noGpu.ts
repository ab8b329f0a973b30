import type {Environment} from "../../src/analysis/schema/manifest.ts";

/** No GPU recorded, and why (never a fabricated device list). */
export const noGpu = (reason: string, tool: Environment["gpu"]["tool"] = null): Environment["gpu"] => ({
  available: false,
  reason,
  devices: [],
  driverVersion: null,
  cudaVersion: null,
  topology: null,
  tool
});

/** The first `RAW_LIMIT` characters of a tool's answer (its raw JSON is kept, bounded). */
export const RAW_LIMIT = 64 * 1024;
export const boundedRaw = (text: string): string => (text.length > RAW_LIMIT ? text.slice(0, RAW_LIMIT) : text);
