/**
 * npm run schema — writes the JSON Schemas generated from the zod schemas to evidence/schema/: the bundle
 * and run config (src/analysis/schema), the Report and `analyze --json` (src/analysis/report); and the
 * config schema again to configs/run-config.schema.json.
 * test/schema.test.ts fails when the committed files are stale.
 */
import {mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {SCHEMA_VERSION} from "../src/analysis/schema/versions.ts";
import {schemaFiles} from "./lib/schemaFiles.ts";

const dir = join(import.meta.dirname, "..", "evidence", "schema");
mkdirSync(dir, {recursive: true});
const files = schemaFiles();
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote evidence/schema/${name}`);
}
// the same config schema next to the example configs, for editor completion (`# yaml-language-server: $schema=…`)
writeFileSync(
  join(import.meta.dirname, "..", "configs", "run-config.schema.json"),
  files[`config.v${SCHEMA_VERSION}.schema.json`]!
);
console.log("wrote configs/run-config.schema.json");
writeFileSync(
  join(import.meta.dirname, "..", "configs", "experiment-plan.schema.json"),
  files["experiment-plan.v1.schema.json"]!
);
console.log("wrote configs/experiment-plan.schema.json");
