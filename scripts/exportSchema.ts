/**
 * npm run schema — writes the JSON Schemas generated from the zod schemas to evidence/schema/.
 * test/schema.test.ts fails when the committed files are stale.
 */
import {mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {schemaFiles} from "./lib/schemaFiles.ts";

const dir = join(import.meta.dirname, "..", "evidence", "schema");
mkdirSync(dir, {recursive: true});
for (const [name, text] of Object.entries(schemaFiles())) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote evidence/schema/${name}`);
}
