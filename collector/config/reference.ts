import {configJsonSchema} from "../../src/analysis/schema/jsonSchema.ts";

export {configJsonSchema};

/** Descriptions for keys whose zod schema carries none (the schema's own description wins). */
export const EXTRA_DESCRIPTIONS: Readonly<Record<string, string>> = {
  description: "free text shown with the run",
  "target.engine_version": "engine version label (else read from /version or llama.cpp /props)",
  "target.timeouts": "explicit client timeouts (never library defaults)",
  "target.timeouts.connect_ms": "time allowed to open the TCP connection",
  workload: "what each request asks for",
  "workload.temperature": "sampling temperature sent with each request",
  "load.mode":
    "concurrency = closed loop with N in flight; rate = constant arrivals; poisson/gamma = seeded random arrivals",
  "load.repeats": "repeats of every load point (fresh schedule seed per repeat: seed + repeat)",
  "load.seed": "PRNG seed (mulberry32) of the arrival schedule and the filler text",
  "slo.ttft_ms": "a request is good only if its TTFT is at most this (ms)",
  "slo.itl_ms": "…and its mean inter-token latency at most this (ms)",
  "slo.e2e_ms": "…and its end-to-end latency at most this (ms)",
  telemetry: "server /metrics, GPU and client sampling",
  "telemetry.server_metrics": "scrape the server's Prometheus /metrics (auto = when it answers at the start)",
  "telemetry.gpu": "sample nvidia-smi (auto/on: a missing tool is recorded once as unavailable, never as zeros)",
  "telemetry.interval_ms": "sampling interval of /metrics, GPU and client health",
  gates: "validity gate thresholds used by the analyzer",
  "gates.max_error_rate": "largest failed share of measured requests (G3)",
  "gates.output_tolerance": "allowed relative deviation of output tokens from max_tokens with ignore_eos (G11)",
  "gates.input_tolerance": "allowed relative deviation of server prompt tokens from the intended length (G12)",
  "gates.min_achieved_load": "achieved load as a share of the target (G5)",
  "gates.max_loop_delay_p99_ms": "client event-loop delay p99 limit (G6)",
  "gates.max_dispatch_lag_p99_ms": "dispatch lag p99 limit (G6)",
  "gates.max_telemetry_missing": "largest share of failed telemetry samples (G24)",
  output: "where and how evidence is written",
  "output.dir": "parent folder of new bundles (overridden by --out)",
  "output.fsync_interval_ms":
    "fdatasync interval of the JSONL files: the most a crash can lose (recorded in the manifest)"
};

interface Row {
  path: string;
  type: string;
  default: string;
  description: string;
}

type Js = {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, Js>;
  items?: Js;
  anyOf?: Js[];
  allOf?: Js[];
  additionalProperties?: Js | boolean;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
};

function typeText(s: Js): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (s.anyOf) return s.anyOf.map(typeText).join(" or ");
  if (s.type === "array") return `list of ${s.items ? typeText(s.items) : "values"}`;
  if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object")
    return "map of strings";
  const range =
    s.exclusiveMinimum !== undefined ? ` > ${s.exclusiveMinimum}` : s.minimum !== undefined ? ` ≥ ${s.minimum}` : "";
  return `${Array.isArray(s.type) ? s.type.join("/") : (s.type ?? "any")}${range}${s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? `, ≤ ${s.maximum}` : ""}`;
}

function walk(s: Js, path: string, rows: Row[]): void {
  if (s.anyOf && s.anyOf.some((b) => b.properties)) {
    const obj = s.anyOf.find((b) => b.properties)!;
    rows.push({
      path,
      type: "mapping or list of mappings",
      default: "",
      description: s.description ?? EXTRA_DESCRIPTIONS[path] ?? ""
    });
    for (const [k, v] of Object.entries(obj.properties!)) walk(v, `${path}.${k}`, rows);
    return;
  }
  if (s.allOf && s.allOf.length === 1) return walk({...s.allOf[0]!, description: s.description}, path, rows);
  if (s.properties) {
    if (path)
      rows.push({path, type: "mapping", default: "", description: s.description ?? EXTRA_DESCRIPTIONS[path] ?? ""});
    for (const [k, v] of Object.entries(s.properties)) walk(v, path ? `${path}.${k}` : k, rows);
    return;
  }
  rows.push({
    path,
    type: typeText(s),
    default: s.default === undefined ? "" : JSON.stringify(s.default),
    description: s.description ?? EXTRA_DESCRIPTIONS[path] ?? ""
  });
}

/** Every config key as a markdown table (path, type, default, description), generated from the zod schema. */
export function configReferenceRows(): Row[] {
  const rows: Row[] = [];
  walk(configJsonSchema() as Js, "", rows);
  return rows;
}

export function configReferenceMarkdown(): string {
  const esc = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = ["| key | type | default | description |", "|---|---|---|---|"];
  for (const r of configReferenceRows())
    lines.push(`| \`${r.path}\` | ${r.type} | ${r.default ? `\`${esc(r.default)}\`` : ""} | ${esc(r.description)} |`);
  return lines.join("\n");
}
