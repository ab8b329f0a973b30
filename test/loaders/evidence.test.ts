import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {FILE_NAMES, parseConfig, parseManifest} from "../../src/analysis/index.ts";
import {loadBundleDir} from "../../src/loaders/evidence.ts";
import {fixtureDir} from "../support/fixtures.ts";

describe("loadBundleDir", () => {
  it("takes the manifest and config the analysis parsed (one read of each file), with rows kept", async () => {
    const dir = fixtureDir("clean");
    const loaded = await loadBundleDir(dir);
    const text = (file: string) => readFileSync(join(dir, file), "utf8");
    expect(loaded.manifest).toEqual(parseManifest(text(FILE_NAMES.manifest), FILE_NAMES.manifest).manifest);
    expect(loaded.config).toEqual(parseConfig(text(FILE_NAMES.config), FILE_NAMES.config).config);
    expect(loaded.manifest).not.toBeNull();
    expect(loaded.config).not.toBeNull();
    expect(loaded.report.rows?.length).toBeGreaterThan(0);
    expect(loaded.report.series).toBeDefined();
  });
});
