import {readFileSync} from "node:fs";
import {join} from "node:path";

import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {parse as parseYaml, stringify as toYaml} from "yaml";

import {ConfigError, parseRunConfig} from "../../collector/config/load.ts";
import {FUZZ} from "./settings.ts";

/**
 * Property-based fuzzing of the config loader (issue 11): whatever the text, `parseRunConfig` returns a
 * config or throws a ConfigError whose every problem names the file and says where (a line, or a key
 * path) — never a TypeError, a RangeError or a stack trace.
 */
const FILE = "fuzz.yaml";
const VLLM = readFileSync(join(import.meta.dirname, "..", "..", "configs", "vllm.yaml"), "utf8");

function outcome(text: string): "ok" | ConfigError {
  try {
    parseRunConfig(text, FILE);
    return "ok";
  } catch (e) {
    if (!(e instanceof ConfigError))
      throw new Error(`not a ConfigError: ${(e as Error)?.stack ?? String(e)}`, {cause: e});
    return e;
  }
}

function expectLocated(e: ConfigError, text: string): void {
  expect(e.problems.length).toBeGreaterThan(0);
  const lines = text.split("\n").length;
  for (const p of e.problems) {
    expect(p.file).toBe(FILE);
    expect(p.message.length).toBeGreaterThan(0);
    expect(p.line !== null || p.path !== "" || /^invalid yaml|^expected a mapping/.test(p.message)).toBe(true);
    if (p.line !== null) {
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.line).toBeLessThanOrEqual(lines + 1);
    }
    expect(e.message).not.toMatch(/\n\s+at /); // no stack trace in what the user sees
  }
}

/** Every leaf path of a parsed YAML value. */
function leaves(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (v !== null && typeof v === "object")
    return Object.entries(v as Record<string, unknown>).flatMap(([k, c]) =>
      leaves(c, [...path, Array.isArray(v) ? Number(k) : k])
    );
  return [path];
}

function setIn(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

describe("config loader under fuzzing", () => {
  it("any text: a config or a ConfigError with located problems, nothing else", () => {
    const yamlish = fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          "target:",
          "load:",
          "  ",
          "- ",
          ": ",
          "\n",
          "&a ",
          "*a",
          "!!",
          "{",
          "}",
          "[",
          "]",
          "#",
          '"',
          "'"
        ),
        fc.string({maxLength: 4})
      ),
      maxLength: 80
    });
    fc.assert(
      fc.property(fc.oneof(yamlish, fc.string({maxLength: 200})), (text) => {
        const r = outcome(text);
        if (r !== "ok") expectLocated(r, text);
      }),
      FUZZ
    );
  });

  it("the shipped vLLM config with one value replaced by anything: accepted or refused at a located key", () => {
    const base = parseYaml(VLLM) as unknown;
    const paths = leaves(base).filter((p) => p.length > 0);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({maxDepth: 2}), (path, value) => {
        const text = toYaml(setIn(base, path, value));
        const r = outcome(text);
        if (r !== "ok") expectLocated(r, text);
      }),
      FUZZ
    );
  });

  it("any JSON document as YAML: refused with located problems unless it is a valid config", () => {
    fc.assert(
      fc.property(fc.jsonValue({maxDepth: 3}), (v) => {
        const text = toYaml(v);
        const r = outcome(text);
        if (r !== "ok") expectLocated(r, text);
      }),
      FUZZ
    );
  });
});
