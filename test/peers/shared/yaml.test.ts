import {describe, expect, it} from "vitest";

import {parseDoc} from "../../../src/analysis/peers/shared/parse.ts";

const yaml = (text: string) => parseDoc({name: "r.yaml", text});

describe("YAML result files are read strictly, and as JSON's reader reads the same values", () => {
  it("every error and warning is refused at its line and column", () => {
    expect(yaml("a: 1\nb: 2\na: 3\n")).toEqual({
      ok: false,
      errors: [{file: "r.yaml", path: "line 3 column 1", expected: "valid YAML (map keys must be unique)"}]
    });
    // a second document is not dropped in silence
    expect(yaml("a: 1\n---\na: 2\n")).toMatchObject({ok: false, errors: [{path: "line 2 column 1"}]});
    // PyYAML's python tags are not read as plain maps
    expect(yaml("a: !!python/object:guidellm.X {b: 1}\n")).toMatchObject({
      ok: false,
      errors: [{path: "line 1 column 4", expected: expect.stringMatching(/^valid YAML \(unresolved tag/)}]
    });
    expect(yaml("a: *nowhere\n")).toMatchObject({ok: false, errors: [{path: "$"}]});
  });

  it(".nan and .inf are null (unknown), integers beyond 2^53 stay exact, the rest are plain numbers", () => {
    expect(yaml("a: .nan\nb: -.inf\nc: 1759522419154568925\nd: 12\ne: 1.0e-05\nf: [1, 2.5]\n")).toEqual({
      ok: true,
      value: {
        name: "r.yaml",
        kind: "yaml",
        value: {a: null, b: null, c: 1759522419154568925n, d: 12, e: 1e-5, f: [1, 2.5]}
      }
    });
  });
});
