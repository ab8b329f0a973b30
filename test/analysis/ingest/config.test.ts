import {describe, expect, it} from "vitest";

import {FALLBACK_CONFIG, parseConfig} from "../../../src/analysis/ingest/config.ts";
import {parseConfigText} from "../../../src/analysis/schema/configText.ts";

const VALID = "target:\n  base_url: http://127.0.0.1:8000\n  model: m\nload:\n  mode: concurrency\n  values: [1, 4]\n";

describe("parseConfig (a bundle's config through the one run-config parser)", () => {
  it("returns the config with defaults and no issues for a valid text", () => {
    const {config, issues} = parseConfig(VALID, "config.resolved.yaml");
    expect(issues).toEqual([]);
    expect(config?.load).toMatchObject({mode: "concurrency", values: [1, 4]});
    expect(config?.gates.token_tolerance).toBe(FALLBACK_CONFIG.gates.token_tolerance);
  });

  it("locates a YAML error at its line", () => {
    const {config, issues} = parseConfig("target:\n  model: m\n  model: n\n", "config.resolved.yaml");
    expect(config).toBeNull();
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({severity: "error", code: "yaml", file: "config.resolved.yaml", line: 3});
    expect(issues[0]!.message).toMatch(/^invalid yaml: /);
  });

  it("locates a schema error at the offending key's line, with its path", () => {
    const {config, issues} = parseConfig(VALID.replace("values: [1, 4]", "values: [1, -4]"), "config.resolved.yaml");
    expect(config).toBeNull();
    expect(issues).toEqual([expect.objectContaining({code: "schema", line: 6, path: "load.values[1]"})]);
  });

  it("is the parser the collector's loader uses: the same problems, with columns", () => {
    const {problems} = parseConfigText("target:\n  model: m\n  bogus: 1\n", "run.yaml");
    expect(problems).toContainEqual(
      expect.objectContaining({
        file: "run.yaml",
        line: 3,
        column: 3,
        path: "target.bogus",
        message: 'unknown key "bogus"'
      })
    );
  });
});
