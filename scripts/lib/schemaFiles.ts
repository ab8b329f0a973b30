import {bundleJsonSchema, configJsonSchema} from "../../src/analysis/schema/jsonSchema.ts";
import {SCHEMA_VERSION} from "../../src/analysis/schema/versions.ts";

/** File name → content of every generated JSON Schema. */
export function schemaFiles(): Record<string, string> {
  return {
    [`bundle.v${SCHEMA_VERSION}.schema.json`]: `${JSON.stringify(bundleJsonSchema(), null, 2)}\n`,
    [`config.v${SCHEMA_VERSION}.schema.json`]: `${JSON.stringify(configJsonSchema(), null, 2)}\n`
  };
}
