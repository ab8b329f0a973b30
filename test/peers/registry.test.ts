import {describe, expect, it} from "vitest";

import {PEER_FORMATS, PEER_TOOLS} from "../../src/analysis/index.ts";

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
