import {z} from "zod";

import {BundlePath, Sha256} from "./primitives.ts";

/**
 * An experiment plan (`inferscope experiment --plan FILE`, YAML) and the sealed experiment record it
 * leaves. A plan names server variants (each one launch), expands parameter grids into named variants,
 * and the run configs collected against each. Unknown keys are rejected everywhere; secrets never appear
 * here (launcher environment values are redacted in the record).
 */

const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "expected a lowercase slug (a-z, 0-9, -)");

export const HealthSpec = z
  .strictObject({
    path: z
      .string()
      .regex(/^\//)
      .nullable()
      .default("/health")
      .describe("readiness URL path answered 200 once the server is up (null: skip this step)"),
    models: z.boolean().default(true).describe("wait until GET /v1/models lists the model"),
    completion: z.boolean().default(true).describe("wait until a first completion (max_tokens 1) answers 200"),
    timeout_s: z.number().positive().max(86_400).default(600).describe("give up the start after this long"),
    interval_ms: z.number().int().positive().default(500).describe("pause between readiness checks")
  })
  .describe("how a launched server is judged ready");

const Env = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string());

export const ProcessLauncher = z
  .strictObject({
    kind: z.literal("process"),
    command: z
      .array(z.string())
      .min(1)
      .describe("argv of the server; {port}, {host}, {model}, {variant} and vars are filled in"),
    cwd: z.string().optional().describe("working folder (default: the plan's folder)"),
    env: Env.default({}).describe("extra environment (values of secret-named variables are redacted)"),
    port: z.number().int().min(1).max(65_535).optional().describe("fixed port (default: a free port)"),
    stop_grace_s: z.number().nonnegative().default(10).describe("SIGTERM, then SIGKILL after this long"),
    niceness: z
      .number()
      .int()
      .min(0)
      .max(19)
      .optional()
      .describe("lower the server's CPU priority (nice) so a load generator on the same cores is not starved")
  })
  .describe("a local process started in its own process group; teardown signals the whole group");

export const DockerLauncher = z
  .strictObject({
    kind: z.literal("docker"),
    image: z.string().min(1),
    args: z.array(z.string()).default([]).describe("arguments after the image ({port}, {model}… filled in)"),
    container_port: z.number().int().min(1).max(65_535).default(8000).describe("port the server listens on"),
    port: z.number().int().min(1).max(65_535).optional().describe("host port on 127.0.0.1 (default: a free port)"),
    gpus: z.string().optional().describe('GPU selection passed as --gpus ("all", "device=0,1")'),
    env: Env.default({}),
    restart: z
      .enum(["no", "on-failure", "always", "unless-stopped"])
      .default("no")
      .describe("restart policy while it runs; teardown always disables it first"),
    run_args: z.array(z.string()).default([]).describe("extra `docker run` options (e.g. --shm-size 16g)"),
    docker: z.string().default("docker").describe("the docker executable"),
    stop_grace_s: z.number().nonnegative().default(30)
  })
  .describe("a container: run detached, logs captured, torn down by update --restart=no, stop, rm");

export const ExternalLauncher = z
  .strictObject({
    kind: z.literal("external"),
    base_url: z.string().describe("the server's URL without /v1, e.g. http://127.0.0.1:8000")
  })
  .describe("a server already running: recorded and health-checked, never started or stopped");

export const LauncherSpec = z.discriminatedUnion("kind", [ProcessLauncher, DockerLauncher, ExternalLauncher]);
export type LauncherSpec = z.output<typeof LauncherSpec>;

/**
 * A grid parameter: a flag name (starting with `-`) whose values are appended as `flag value` (true: the
 * flag alone, false: nothing), or a name whose values map to the arguments they add.
 */
const GridValue = z.union([z.string(), z.number(), z.boolean()]);
const GridParam = z.union([
  z.array(GridValue).min(1),
  z.record(z.string(), z.array(z.string())).refine((r) => Object.keys(r).length > 0, "expected at least one value")
]);

export const VariantSpec = z.strictObject({
  name: Slug.describe("variant name (grid values are appended: name-parallel-2-spec-on)"),
  launcher: LauncherSpec,
  model: z.string().optional().describe("model name the server serves (default: each run config's target.model)"),
  engine: z.string().optional().describe("engine label recorded in each bundle (vllm, sglang, llama.cpp…)"),
  labels: z.record(z.string(), z.string()).default({}),
  grid: z.record(z.string(), GridParam).optional().describe("parameters expanded into one variant per combination"),
  health: HealthSpec.prefault({})
});
export type VariantSpec = z.output<typeof VariantSpec>;

export const ExperimentPlanSpec = z.strictObject({
  name: Slug.describe("experiment name (the record's folder)"),
  description: z.string().optional(),
  runs: z
    .array(z.string())
    .min(1)
    .describe("run config files collected against each variant, in order (relative to the plan)"),
  vars: z.record(z.string(), z.string()).default({}).describe("values for {name} placeholders in launch commands"),
  variants: z.array(VariantSpec).min(1),
  cooldown_s: z.number().nonnegative().default(5).describe("pause after a variant's teardown"),
  out: z.string().optional().describe("parent folder of the bundles (default: each run config's output.dir)")
});
export type ExperimentPlanSpec = z.input<typeof ExperimentPlanSpec>;
export type ExperimentPlan = z.output<typeof ExperimentPlanSpec>;

/** One server launch, after grid expansion: its name, parameters and the arguments they add. */
export interface Variant {
  name: string;
  /** Grid parameters → value (as written), in grid order. */
  params: Record<string, string>;
  /** Launch arguments the grid adds (after the launcher's own). */
  extraArgs: string[];
  spec: VariantSpec;
}

const valueSlug = (v: string): string =>
  v
    .toLowerCase()
    .replace(/^-+/, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "x";

/** The arguments one grid value adds. */
function argsOf(param: string, value: string | number | boolean, mapped: Record<string, string[]> | null): string[] {
  if (mapped !== null) return mapped[String(value)]!;
  if (!param.startsWith("-")) return [];
  if (value === true) return [param];
  if (value === false) return [];
  return [param, String(value)];
}

/**
 * Expands every variant's grid into named variants (the cartesian product, in key then value order).
 * A name without a flag (`spec: [on, off]`) must map its values to arguments; duplicate names are an error.
 */
export function expandVariants(plan: ExperimentPlan): Variant[] {
  const out: Variant[] = [];
  for (const spec of plan.variants) {
    let combos: {params: Record<string, string>; args: string[]; suffix: string[]}[] = [
      {params: {}, args: [], suffix: []}
    ];
    for (const [param, values] of Object.entries(spec.grid ?? {})) {
      const mapped = Array.isArray(values) ? null : values;
      if (mapped === null && !param.startsWith("-"))
        throw new Error(
          `variant ${spec.name}: grid.${param}: a parameter that is not a flag (-x, --x) must map each value to its arguments, e.g. {on: [--flag], off: []}`
        );
      const list: (string | number | boolean)[] =
        mapped === null ? (values as (string | number | boolean)[]) : Object.keys(mapped);
      const next: typeof combos = [];
      for (const c of combos)
        for (const v of list)
          next.push({
            params: {...c.params, [param]: String(v)},
            args: [...c.args, ...argsOf(param, v, mapped)],
            suffix: [...c.suffix, `${valueSlug(param)}-${valueSlug(String(v))}`]
          });
      combos = next;
    }
    for (const c of combos)
      out.push({name: [spec.name, ...c.suffix].join("-"), params: c.params, extraArgs: c.args, spec});
  }
  const seen = new Set<string>();
  for (const v of out) {
    if (seen.has(v.name)) throw new Error(`variant name ${v.name} appears twice: names must be unique`);
    seen.add(v.name);
  }
  return out;
}

/** Fills `{key}` placeholders; an unknown placeholder is an error naming it. */
/** A `{name}` placeholder of a launch argument (`{port}`, a plan var, `{env.NAME}`). */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.]*)\}/g;

export function fillTemplate(text: string, vars: Readonly<Record<string, string>>, where: string): string {
  return text.replace(PLACEHOLDER, (_, key: string) => {
    const v = vars[key];
    if (v === undefined)
      throw new Error(
        key.startsWith("env.")
          ? `${where}: {${key}}: the environment variable ${key.slice(4)} is not set`
          : `${where}: unknown placeholder {${key}} (known: ${Object.keys(vars)
              .filter((k) => !k.startsWith("env."))
              .sort()
              .join(", ")})`
      );
    return v;
  });
}

export const VariantStatus = z.enum(["collected", "start_failed", "interrupted", "collect_failed", "pending"]);
export type VariantStatus = z.infer<typeof VariantStatus>;

export const TeardownStep = z.strictObject({
  step: z.string().describe("e.g. SIGTERM group 1234, docker update --restart=no"),
  ok: z.boolean(),
  detail: z.string().nullable()
});

export const VariantRecord = z.strictObject({
  name: z.string(),
  params: z.record(z.string(), z.string()),
  labels: z.record(z.string(), z.string()),
  launcher: z.enum(["process", "docker", "external"]),
  command: z.array(z.string()).nullable().describe("the launch command line, secrets redacted"),
  baseUrl: z.string().nullable(),
  status: VariantStatus,
  reason: z.string().nullable().describe("why it failed to start or to collect"),
  readyMs: z.number().nullable().describe("launch to ready, ms"),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  logFile: BundlePath.nullable().describe("the server log, relative to the experiment folder (redacted)"),
  logTail: z.string().nullable().describe("last lines of the server log (start failures)"),
  bundles: z.array(
    z.strictObject({
      run: z.string().describe("the run config file, as the plan names it"),
      bundleId: z.string(),
      dir: z.string().describe("the bundle's folder, relative to the experiment record's folder"),
      status: z.string().describe("the bundle's sealed status (complete, interrupted, partial)")
    })
  ),
  teardown: z.array(TeardownStep)
});
export type VariantRecord = z.infer<typeof VariantRecord>;

export const ExperimentRecord = z.strictObject({
  kind: z.literal("inferscope.experiment"),
  schemaVersion: z.literal(1),
  name: z.string(),
  description: z.string().nullable(),
  planSha256: z.string(),
  plan: z.unknown().describe("the plan as read, launcher environment values redacted"),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(["running", "complete", "interrupted"]),
  order: z.array(z.string()).describe("variant names in run order"),
  variants: z.array(VariantRecord),
  resumes: z.array(z.string()).describe("when the experiment was resumed"),
  group: z
    .strictObject({id: z.string(), title: z.string(), bundles: z.array(z.string())})
    .describe("the comparison group its bundles form")
});
export type ExperimentRecord = z.infer<typeof ExperimentRecord>;

/** The record's seal: the sha256 of experiment.json and of each log file (written last). */
export const ExperimentSeal = z.strictObject({
  files: z.array(z.strictObject({path: BundlePath, bytes: z.number().int().nonnegative(), sha256: Sha256}))
});
export type ExperimentSeal = z.infer<typeof ExperimentSeal>;
