import {analyzeJsonSchema, reportJsonSchema} from "../../src/analysis/report/jsonSchema.ts";
import {
  bundleJsonSchema,
  configJsonSchema,
  experimentPlanJsonSchema,
  experimentRecordJsonSchema
} from "../../src/analysis/schema/jsonSchema.ts";
import {REPORT_VERSION, SCHEMA_VERSION} from "../../src/analysis/schema/versions.ts";

/** File name → content of every generated JSON Schema. */
export function schemaFiles(): Record<string, string> {
  const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;
  return {
    [`bundle.v${SCHEMA_VERSION}.schema.json`]: text(bundleJsonSchema()),
    [`config.v${SCHEMA_VERSION}.schema.json`]: text(configJsonSchema()),
    [`report.v${REPORT_VERSION}.schema.json`]: text(reportJsonSchema()),
    [`analyze.v${REPORT_VERSION}.schema.json`]: text(analyzeJsonSchema()),
    "experiment-plan.v1.schema.json": text(experimentPlanJsonSchema()),
    "experiment.v1.schema.json": text(experimentRecordJsonSchema())
  };
}
