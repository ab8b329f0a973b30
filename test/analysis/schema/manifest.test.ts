import {describe, expect, it} from "vitest";

import {parseManifest} from "../../../src/analysis/ingest/manifest.ts";
import {ExperimentSeal} from "../../../src/analysis/schema/experiment.ts";
import {BundlePath} from "../../../src/analysis/schema/primitives.ts";

/** A manifest names files inside its own folder only: no entry may reach a file elsewhere, or name one twice. */
describe("a file's path in a manifest", () => {
  it("takes relative paths of plain segments, dots inside a name included", () => {
    for (const p of ["requests.jsonl", "logs/llama-spec-off.log", "attachments/server.v2..log", ".hidden", "a/b/c_d-e"])
      expect(BundlePath.safeParse(p).success, p).toBe(true);
  });

  it("refuses a path that leaves the folder, is absolute, or spells one file two ways", () => {
    const refused = [
      "..",
      ".",
      "../x",
      "a/../b",
      "a/..",
      "./x",
      "a/./b",
      "/etc/passwd",
      "a//b",
      "a/",
      "",
      "a\\b",
      "C:x"
    ];
    for (const p of refused) expect(BundlePath.safeParse(p).success, p).toBe(false);
  });

  it("makes a manifest with such an entry an error naming the field, not a bundle to read", () => {
    const entry = {path: "../other/requests.jsonl", role: "requests", bytes: 0, sha256: "0".repeat(64), records: 0};
    const {manifest, issues} = parseManifest(JSON.stringify({files: [entry]}), "manifest.json");
    expect(manifest).toBeNull();
    const onPath = issues.filter((i) => i.path === "files.0.path");
    expect(onPath).toHaveLength(1);
    expect(onPath[0]).toMatchObject({severity: "error", file: "manifest.json"});
    expect(onPath[0]!.message).toMatch(/relative path inside the folder/);
  });

  it("holds for an experiment's seal too", () => {
    const file = {bytes: 1, sha256: "a".repeat(64)};
    expect(ExperimentSeal.safeParse({files: [{path: "logs/x.log", ...file}]}).success).toBe(true);
    expect(ExperimentSeal.safeParse({files: [{path: "../x.log", ...file}]}).success).toBe(false);
    expect(ExperimentSeal.safeParse({files: [{path: "logs/x.log", bytes: 1, sha256: "not hex"}]}).success).toBe(false);
  });
});

describe("the bundle format version", () => {
  const messageFor = (schemaVersion: unknown) =>
    parseManifest(JSON.stringify({schemaVersion}), "manifest.json").issues.find((i) => i.path === "schemaVersion")
      ?.message;

  it("a newer format says to upgrade; anything else names what it got", () => {
    expect(messageFor(99)).toBe(
      "bundle format 99 is newer than this inferscope reads (1, 2): upgrade inferscope to read it"
    );
    expect(messageFor("2")).toBe('expected the bundle format version 1 or 2, got "2"');
    expect(messageFor(0)).toBe("expected the bundle format version 1 or 2, got 0");
    expect(messageFor(2)).toBeUndefined();
  });
});
