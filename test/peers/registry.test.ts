import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {importPeer, PEER_FORMATS, PEER_TOOLS} from "../../src/analysis/index.ts";
import {SYNTH} from "./helpers.ts";

describe("PEER_FORMATS: one registry for the importer and the source comparison", () => {
  it("has one entry per peer tool, each naming its tool and filling detect, import and compare", () => {
    expect(Object.keys(PEER_FORMATS).sort()).toEqual([...PEER_TOOLS].sort());
    for (const tool of PEER_TOOLS) {
      const f = PEER_FORMATS[tool];
      expect(f.tool).toBe(tool);
      expect(f.expected.length).toBeGreaterThan(20);
      expect([typeof f.detect, typeof f.import, typeof f.compare]).toEqual(["function", "function", "function"]);
    }
  });

  it("detect claims nothing of an empty list and of a document no tool writes", () => {
    const docs = [{name: "x.json", kind: "json" as const, value: {hello: "world"}}];
    for (const tool of PEER_TOOLS) {
      expect(PEER_FORMATS[tool].detect([])).toBeNull();
      expect(PEER_FORMATS[tool].detect(docs)).toBeNull();
    }
  });
});

describe("a named tool whose files have another tool's shape", () => {
  const vllm = {
    name: "run.json",
    text: readFileSync(join(SYNTH, "vllm/vllm-2024-detailed.json"), "utf8")
  };
  it("imports as named, and says that auto would read them as the other tool", () => {
    const r = importPeer("sglang", [vllm]);
    expect(r.ok).toBe(true);
    const w =
      "imported as SGLang as named, but the files' shape is vLLM's (`import auto` would read them as vllm): their definitions differ";
    expect(r.ok && r.value.warnings).toEqual([w]);
    expect(r.ok && r.value.notes).toContain(w);
  });
  it("says nothing when the named tool is the one detected", () => {
    const r = importPeer("vllm", [vllm]);
    expect(r.ok && r.value.warnings).toBeUndefined();
  });
});
