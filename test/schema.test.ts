import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {schemaFiles} from "../scripts/lib/schemaFiles.ts";

describe("published JSON Schemas", () => {
  for (const [name, text] of Object.entries(schemaFiles()))
    it(`evidence/schema/${name} is current (run \`npm run schema\` after changing src/analysis/schema)`, () => {
      const committed = readFileSync(join(import.meta.dirname, "..", "evidence", "schema", name), "utf8");
      expect(committed).toBe(text);
    });

  it("the bundle schema describes every record role and carries field descriptions with units", () => {
    const bundle = JSON.parse(schemaFiles()["bundle.v2.schema.json"]!);
    expect(Object.keys(bundle.$defs).sort()).toEqual(
      ["client_metrics", "gpu_metrics", "quality", "requests", "schedule", "server_metrics", "source"].sort()
    );
    expect(bundle.$defs.requests.properties.tSchedNs.description).toMatch(/scheduled send time/);
    expect(bundle.properties.monotonicOriginNs.description).toMatch(/CLOCK_MONOTONIC/);
  });
});
