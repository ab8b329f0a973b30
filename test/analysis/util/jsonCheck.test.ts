import {describe, expect, it} from "vitest";

import {parseManifest} from "../../../src/analysis/ingest/manifest.ts";
import {checkJson, lineAndColumn} from "../../../src/analysis/util/jsonCheck.ts";
import {jsonPath} from "../../../src/analysis/util/zodIssues.ts";

/** The offset and what was expected, as checkJson reports a fault (null when the text is JSON). */
const fault = (text: string) => {
  const e = checkJson(text).error;
  return e === null ? null : {offset: e.offset, message: e.message};
};

describe("a strict reading of JSON: where a rejected text goes wrong", () => {
  it("points at the character at fault, offsets worked out by hand", () => {
    expect(fault('{"a": NaN}')).toEqual({
      offset: 6,
      message: 'expected a value (object, array, string, number, true, false or null), found "N"'
    });
    expect(fault('{"a":1,}')!.offset).toBe(7); // a trailing comma: a name was due at the "}"
    expect(fault('{"a":1,}')!.message).toMatch(/^expected a double-quoted member name, found "}"/);
    expect(fault("[1,2")).toEqual({
      offset: 4,
      message: "expected ',' or ']' after an array element, found the end of the text"
    });
    expect(fault('{"a":1}x')!.offset).toBe(7);
    expect(fault('"abc')!.offset).toBe(0); // an unclosed string is named where it opens
    expect(fault('"a\\x"')!.offset).toBe(3); // the letter after the backslash
    expect(fault('"a\\u12g4"')!.offset).toBe(6);
    expect(fault('"a\nb"')!.offset).toBe(2); // a raw newline inside a string
    expect(fault("01")!.offset).toBe(1);
    expect(fault("1.")!.offset).toBe(2);
    expect(fault("1e+")!.offset).toBe(3);
    expect(fault("-")!.offset).toBe(1);
    expect(fault("tru")!.offset).toBe(3);
    expect(fault("{'a': 1}")!.offset).toBe(1);
    expect(fault("")!.offset).toBe(0);
    expect(fault("  \n ")!.offset).toBe(4);
  });

  it("accepts what RFC 8259 accepts", () => {
    for (const text of [
      "-0.5e+10",
      "[0, 1e5, 1E-5, 12, -0]",
      '{"a\\u00e9\\n": [true, false, null, {}, []]}',
      ' "x" ',
      "[[[]]]"
    ])
      expect(fault(text), text).toBeNull();
  });

  it("agrees with JSON.parse on what is JSON, over thousands of damaged texts", () => {
    const base =
      '{"seq": 3, "events": [[1200, 35, "token", 1, "data: {\\"x\\": \\"é\\\\n\\"}"]], "usage": {"n": -1.5e-3}, "ok": true, "no": null}';
    // a deterministic generator (mulberry32) so a failure names its case
    let state = 42;
    const rand = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const alphabet = ' {}[]:,"\\0123456789.eE+-tfnaulrsx\n\t\u0001';
    for (let k = 0; k < 4000; k++) {
      let text = base;
      for (let m = 1 + Math.floor(rand() * 3); m > 0; m--) {
        const at = Math.floor(rand() * (text.length + 1));
        const op = rand();
        const ch = alphabet[Math.floor(rand() * alphabet.length)]!;
        text =
          op < 0.4
            ? text.slice(0, at) + text.slice(at + 1)
            : op < 0.8
              ? text.slice(0, at) + ch + text.slice(at)
              : text.slice(0, at) + ch + text.slice(at + 1);
      }
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(checkJson(text).error === null, JSON.stringify(text)).toBe(parses);
    }
  });
});

describe("a strict reading of JSON: names given twice", () => {
  it("names each repeat by its path and offset, decoded names compared", () => {
    const text = '{"a":1,"b":{"c":2,"c":3},"a":4}';
    expect(checkJson(text).duplicates).toEqual([
      {path: "$.b.c", offset: 18},
      {path: "$.a", offset: 25}
    ]);
    expect(checkJson('{"a":1,"\\u0061":2}').duplicates).toEqual([{path: "$.a", offset: 7}]);
    expect(checkJson('{"x y":1,"x y":2}').duplicates).toEqual([{path: '$["x y"]', offset: 9}]);
    expect(checkJson('[{"a":1},{"a":2}]').duplicates).toEqual([]); // two objects, one name each
    expect(checkJson('{"a":{"a":1}}').duplicates).toEqual([]);
    expect(checkJson('{"a":1,"a":2,"a":3}', 1).duplicates).toHaveLength(1); // bounded
  });

  it("records every value's offset by path, for a later complaint's line", () => {
    const offsets = new Map<string, number>();
    checkJson('{"a":[10,{"b":true}]}', 10, offsets);
    expect(Object.fromEntries(offsets)).toEqual({$: 0, "$.a": 5, "$.a[0]": 6, "$.a[1]": 9, "$.a[1].b": 14});
    expect(jsonPath(["loadPoints", 0, "value"])).toBe("$.loadPoints[0].value");
    expect(jsonPath(["odd key"])).toBe('$["odd key"]');
    expect(lineAndColumn("ab\ncd", 4)).toEqual({line: 2, column: 2});
    expect(lineAndColumn("ab\ncd", 0)).toEqual({line: 1, column: 1});
  });
});

describe("a manifest that is not what it claims", () => {
  const lines = ["{", '  "schemaVersion": 1,', '  "status": "complete",', '  "clockAnchors": [{"tNs": NaN}]', "}"];

  it("names the line and column of a syntax error (V8's own message names none)", () => {
    const {manifest, issues} = parseManifest(lines.join("\n"), "manifest.json");
    expect(manifest).toBeNull();
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({severity: "error", code: "json", file: "manifest.json", line: 4});
    expect(issues[0]!.message).toContain("(column 28)"); // two spaces, "clockAnchors" (14), ": [{" and "tNs": (5 + 2): N is the 28th
  });

  it("refuses a name given twice, at the repeat's line, instead of keeping the last", () => {
    const text = ["{", '  "status": "interrupted",', '  "schemaVersion": 1,', '  "status": "complete"', "}"].join("\n");
    const {manifest, issues} = parseManifest(text, "manifest.json");
    expect(manifest).toBeNull();
    expect(issues).toEqual([expect.objectContaining({severity: "error", code: "duplicate_key", line: 4})]);
    expect(issues[0]!.message).toContain('"$.status" is given twice');
  });

  it("puts a schema error on the line of the offending value, or of its object when the key is missing", () => {
    const text = ["{", '  "schemaVersion": 1,', '  "status": "compleat"', "}"].join("\n");
    const {issues} = parseManifest(text, "manifest.json");
    const status = issues.find((i) => i.path === "status");
    expect(status).toMatchObject({severity: "error", line: 3});
    // a key the manifest lacks is reported on the line where the manifest's object opens
    expect(issues.find((i) => i.path === "bundleId")).toMatchObject({line: 1});
  });
});
