import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {
  analyzeBundle,
  FILE_NAMES,
  memorySource,
  parseConfig,
  parseManifest,
  readAndAnalyze
} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {fixtureDir, fixtureNames} from "../support/fixtures.ts";
import {stableJson} from "../support/golden.ts";

const digest = (text: string) => ({bytes: text.length, sha256: `h${text.length}`});

/** A fixture's files as text, for in-memory variants. */
function fixtureFiles(name: string): Record<string, string> {
  const dir = fixtureDir(name);
  return Object.fromEntries(fsBundle(dir).files.map((p) => [p, readFileSync(join(dir, p), "utf8")]));
}

describe("readAndAnalyze: the Report with the manifest and config it read, parsed once", () => {
  for (const name of fixtureNames())
    it(`${name}: the Report is analyzeBundle's; manifest and config equal a parse of the files`, async () => {
      const dir = fixtureDir(name);
      const got = await readAndAnalyze(fsBundle(dir));
      expect(stableJson(got.report)).toBe(stableJson(await analyzeBundle(fsBundle(dir))));
      const files = fixtureFiles(name);
      const m = files[FILE_NAMES.manifest];
      const c = files[FILE_NAMES.config];
      expect(got.manifest).toEqual(m === undefined ? null : parseManifest(m, FILE_NAMES.manifest).manifest);
      expect(got.config).toEqual(c === undefined ? null : parseConfig(c, FILE_NAMES.config).config);
    });

  it("gives null, never the fallback, for an absent or unparsable config, and null for an absent manifest", async () => {
    const {[FILE_NAMES.config]: _config, [FILE_NAMES.manifest]: _manifest, ...data} = fixtureFiles("clean");
    const bare = await readAndAnalyze(memorySource("bare", data, digest));
    expect(bare.manifest).toBeNull();
    expect(bare.config).toBeNull();
    expect(bare.report.issues.map((i) => i.code)).toEqual(expect.arrayContaining(["no_manifest", "no_config"]));

    const broken = await readAndAnalyze(
      memorySource("broken", {...data, [FILE_NAMES.config]: "load: [unclosed\n"}, digest)
    );
    expect(broken.config).toBeNull();
    expect(broken.report.issues.some((i) => i.file === FILE_NAMES.config && i.severity === "error")).toBe(true);
  });
});
