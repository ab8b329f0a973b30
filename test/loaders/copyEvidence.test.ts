import {mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {copyEvidence} from "../../src/loaders/copyEvidence.ts";
import {withheldFiles} from "../../src/loaders/withheld.ts";

/** Issue 11 item 1 on the site: a bundle an older collector wrote with a credential in its launch arguments. */
describe("raw copies of a bundle whose manifest holds a credential", () => {
  it("are not published (manifest and config stay in the repository); other files are", () => {
    const root = mkdtempSync(join(tmpdir(), "inferscope-withheld-"));
    try {
      const dir = join(root, "b1");
      mkdirSync(dir);
      const manifest = {
        bundleId: "b1",
        environment: {server: {launchArgs: ["--api-key", "sk-old-secret", "--port", "1"]}}
      };
      writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
      writeFileSync(join(dir, "config.resolved.yaml"), "target:\n  launch_args: [--api-key, sk-old-secret]\n");
      writeFileSync(join(dir, "requests.jsonl"), "");
      expect([...withheldFiles(dir).keys()].sort()).toEqual([
        "config.resolved.yaml",
        "manifest.json",
        "run.draft.json"
      ]);
      const out = join(root, "dist");
      copyEvidence(out, [dir]);
      expect(readdirSync(join(out, "evidence", "b1"))).toEqual(["requests.jsonl"]);

      const clean = join(root, "b2");
      mkdirSync(clean);
      writeFileSync(
        join(clean, "manifest.json"),
        JSON.stringify({
          bundleId: "b2",
          environment: {server: {launchArgs: ["--api-key", "[REDACTED]", "--max-tokens", "8"]}}
        })
      );
      expect(withheldFiles(clean).size).toBe(0);
    } finally {
      rmSync(root, {recursive: true, force: true});
    }
  });
});
