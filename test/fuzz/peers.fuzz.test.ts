import {join} from "node:path";

import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {parse as parseYaml} from "yaml";

import {
  analyzeBundle,
  formatPeerError,
  importPeer,
  memorySource,
  PEER_TOOLS,
  type PeerFile,
  type PeerTool
} from "../../src/analysis/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {bundleTexts, readInputs, SYNTH} from "../peers/helpers.ts";
import {FUZZ} from "./settings.ts";

/**
 * Property-based fuzzing of every importer's parser (issue 13), on the shared fuzz settings: whatever the
 * bytes, `importPeer` returns an import or located errors — never an exception — and every error is one
 * line naming the file, a place in it and what was expected, with no raw control character and no stack
 * trace. Structural mutations of each format's fixture (a value replaced by any JSON value) must also
 * import or fail that way, and what imports must analyse without an exception.
 */
const FIXTURES: Record<PeerTool, string[]> = {
  vllm: ["vllm/vllm-2025-detailed.json"],
  sglang: ["sglang/sglang-bench-serving.jsonl"],
  "genai-perf": ["genai-perf/profile_export.json", "genai-perf/profile_export_genai_perf.json"],
  aiperf: ["aiperf/v0.12/profile_export.jsonl", "aiperf/v0.12/profile_export_aiperf.json"],
  guidellm: ["guidellm/window/benchmarks.json"],
  llmperf: ["llmperf/synthetic_individual_responses.json", "llmperf/synthetic_summary.json"],
  "inferscope-v1": ["inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0"],
  "llmd-report": ["../peers/llmd-report/br_v0_2_example.yaml"]
};
const inputsOf = (tool: PeerTool): PeerFile[] => readInputs(FIXTURES[tool].map((p) => join(SYNTH, p)));

/** Runs the import; returns its errors (or [] when it imported), failing on an exception or a bad error. */
function errorsOf(tool: PeerTool | "auto", files: PeerFile[]): string[] | null {
  const r = importPeer(tool, files);
  if (r.ok) return null;
  expect(r.errors.length).toBeGreaterThan(0);
  const names = new Set(files.map((f) => f.name));
  for (const e of r.errors) {
    expect(e.path.length, "a place in the file").toBeGreaterThan(0);
    expect(e.expected.length, "what was expected").toBeGreaterThan(0);
    // the file, or (tool-level errors) the files it names
    expect(e.file.split(", ").some((n) => names.has(n)) || e.file === "(none)").toBe(true);
    const line = formatPeerError(e);
    expect(
      [...line].every((c) => c.charCodeAt(0) >= 0x20 || c === "\n"),
      `control character in ${JSON.stringify(line)}`
    ).toBe(true);
    expect(line).not.toMatch(/\n\s+at /);
  }
  return r.errors.map(formatPeerError);
}

/** Every leaf path of a parsed value (arrays and objects), at most `limit` of them. */
function leaves(
  v: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
  limit = 400
): (string | number)[][] {
  if (out.length >= limit) return out;
  if (v !== null && typeof v === "object") {
    const entries = Array.isArray(v) ? v.slice(0, 6).map((x, i) => [i, x] as const) : Object.entries(v);
    if (entries.length === 0) out.push(path);
    for (const [k, c] of entries) leaves(c, [...path, k], out, limit);
  } else out.push(path);
  return out;
}

function setIn(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

const parseAny = (f: PeerFile): {kind: "json" | "jsonl" | "yaml"; value: unknown} => {
  if (/\.ya?ml$/.test(f.name)) return {kind: "yaml", value: parseYaml(f.text)};
  try {
    return {kind: "json", value: JSON.parse(f.text)};
  } catch {
    return {
      kind: "jsonl",
      value: f.text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l))
    };
  }
};
const serialise = (kind: "json" | "jsonl" | "yaml", v: unknown): string =>
  kind === "jsonl" ? (v as unknown[]).map((x) => JSON.stringify(x)).join("\n") + "\n" : JSON.stringify(v);

/** Values a mutation puts in place of a leaf: JSON of any shape, hostile strings, big and odd numbers. */
const HOSTILE = fc.oneof(
  fc.jsonValue({maxDepth: 3}),
  fc.constantFrom(null, "", "=cmd|' /C calc'!A0", "NaN", -1, 0, 1e308, -1e-300, 2 ** 53 + 1, "\u0000", "\u202e"),
  fc.string({unit: "binary", maxLength: 40})
);

describe("fuzz: every importer's parser", () => {
  const names = fc.constantFrom("r.json", "r.jsonl", "r.yaml", "benchmarks.json", "profile_export.jsonl");
  it("arbitrary text (unicode, binary, JSON-like) never throws; every rejection is a located error", () => {
    const text = fc.oneof(
      fc.string({unit: "binary", maxLength: 400}),
      fc.string({unit: "grapheme", maxLength: 200}),
      fc.jsonValue({maxDepth: 4}).map((v) => JSON.stringify(v)),
      fc.array(fc.jsonValue({maxDepth: 2}), {maxLength: 5}).map((vs) => vs.map((v) => JSON.stringify(v)).join("\n"))
    );
    fc.assert(
      fc.property(fc.constantFrom<PeerTool | "auto">("auto", ...PEER_TOOLS), names, text, (tool, name, t) => {
        errorsOf(tool, [{name, text: t}]);
      }),
      FUZZ
    );
  });

  for (const tool of PEER_TOOLS)
    it(`${tool}: a fixture with one value replaced imports or fails located, and what imports analyses`, async () => {
      const inputs = inputsOf(tool);
      const parsed = inputs.map(parseAny);
      const paths = parsed.map((p) => leaves(p.value));
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat(), HOSTILE, async (fi, li, value) => {
          const k = fi % inputs.length;
          const path = paths[k]![li % paths[k]!.length]!;
          const files = inputs.map((f, i) =>
            i === k ? {name: f.name, text: serialise(parsed[i]!.kind, setIn(parsed[i]!.value, path, value))} : f
          );
          if (errorsOf(tool, files) !== null) return;
          const r = importPeer(tool, files);
          if (!r.ok) return;
          const texts = bundleTexts(r.value, files);
          const digest = (t: string) => ({bytes: Buffer.byteLength(t), sha256: sha256Hex(t)});
          await analyzeBundle(memorySource(`fuzz-${tool}`, texts, digest));
        }),
        {...FUZZ, numRuns: Math.max(20, Math.floor((FUZZ.numRuns ?? 300) / 3))}
      );
    }, 120_000);
});
