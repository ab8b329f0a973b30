import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {loadBlocks} from "../../../src/analysis/schema/config.ts";
import {parseRunConfig} from "../../../collector/config/load.ts";
import {configJsonSchema, configReferenceRows} from "../../../collector/config/reference.ts";
import {planPoints} from "../../../collector/load/plan.ts";
import {REPO_ROOT} from "../helpers.ts";

/** Run configs: every YAML file of configs/ except the experiment plans (test/analysis/schema/experiment.test.ts). */
const configs = readdirSync(join(REPO_ROOT, "configs")).filter(
  (f) => f.endsWith(".yaml") && !f.startsWith("experiment")
);

describe("example configs", () => {
  it("ships smoke, vllm and llamacpp", () => {
    expect(configs).toEqual(expect.arrayContaining(["smoke.yaml", "vllm.yaml", "llamacpp.yaml"]));
  });

  it.each(configs)("%s parses, plans its load points and carries no secret", (name) => {
    const text = readFileSync(join(REPO_ROOT, "configs", name), "utf8");
    const c = parseRunConfig(text, name);
    expect(planPoints(c).length).toBeGreaterThan(0);
    expect(loadBlocks(c).length).toBeGreaterThan(0);
    expect(text).not.toMatch(/sk-[A-Za-z0-9]{8,}|Bearer /);
  });

  it("the committed JSON Schema matches the zod schema", () => {
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, "configs", "run-config.schema.json"), "utf8")) as unknown;
    expect(committed).toEqual(configJsonSchema());
  });
});

describe("docs/collector.md", () => {
  const doc = readFileSync(join(REPO_ROOT, "docs", "collector.md"), "utf8");

  it("documents every config key with its type, default and description (generated table in sync)", () => {
    const block = doc.split("<!-- config-reference:start -->")[1]!.split("<!-- config-reference:end -->")[0]!;
    const rows = block
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .map((l) =>
        l
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => c.trim().replace(/\\\|/g, "|"))
      );
    const want = configReferenceRows().map((r) => [
      `\`${r.path}\``,
      r.type.replace(/\\\|/g, "|"),
      r.default ? `\`${r.default}\`` : "",
      r.description
    ]);
    expect(rows).toEqual(want);
    expect(want.every((r) => r[3] !== "")).toBe(true); // every key is described
  });

  it("documents every command and exit code", () => {
    for (const cmd of ["collect", "seal", "analyze", "verify", "gate", "probe", "config-schema", "fake-server"])
      expect(doc).toContain(`\`${cmd}`);
    // the exit codes live in one table for every command (test/docs.test.ts checks it); collector.md links it
    expect(doc).toContain("](exit-codes.md)");
  });
});
