import {z} from "zod";

import {RunConfigSpec} from "./config.ts";
import {ExperimentPlanSpec, ExperimentRecord} from "./experiment.ts";
import {Manifest} from "./manifest.ts";
import {RECORD_SCHEMAS} from "./records.ts";
import {SCHEMA_VERSION} from "./versions.ts";

/** JSON Schema (2020-12) of bundle v1: the manifest and each JSONL record type, generated from the zod schemas. */
export function bundleJsonSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const [role, schema] of Object.entries(RECORD_SCHEMAS)) defs[role] = z.toJSONSchema(schema, {io: "input"});
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://inferscope.dev/schema/bundle.v${SCHEMA_VERSION}.schema.json`,
    title: `InferScope evidence bundle v${SCHEMA_VERSION}`,
    description:
      "manifest.json validates against the root schema; each JSONL file's records validate against $defs/<role> (requests, schedule, client_metrics, server_metrics, gpu_metrics, quality, source). Generated from src/analysis/schema by `npm run schema`; do not edit.",
    ...stripSchemaKey(z.toJSONSchema(Manifest, {io: "input"})),
    $defs: defs
  };
}

/** JSON Schema of the run configuration (YAML), for editor completion. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(RunConfigSpec, {io: "input", unrepresentable: "any"}),
    $id: `https://inferscope.dev/schema/config.v${SCHEMA_VERSION}.schema.json`,
    title: `InferScope run configuration v${SCHEMA_VERSION}`
  };
}

/** JSON Schema of an experiment plan (YAML), for editor completion. */
export function experimentPlanJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ExperimentPlanSpec, {io: "input", unrepresentable: "any"}),
    $id: "https://inferscope.dev/schema/experiment-plan.v1.schema.json",
    title: "InferScope experiment plan v1"
  };
}

/** JSON Schema of the sealed experiment record (experiment.json). */
export function experimentRecordJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ExperimentRecord, {io: "input", unrepresentable: "any"}),
    $id: "https://inferscope.dev/schema/experiment.v1.schema.json",
    title: "InferScope experiment record v1"
  };
}

function stripSchemaKey(o: Record<string, unknown>): Record<string, unknown> {
  const {$schema: _, ...rest} = o;
  return rest;
}
