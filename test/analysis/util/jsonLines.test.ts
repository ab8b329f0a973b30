import {describe, expect, it} from "vitest";

import {jsonLines} from "../../../src/analysis/util/jsonLines.ts";

describe("jsonLines", () => {
  it("an empty or blank text has no lines", () => {
    expect(jsonLines("")).toEqual([]);
    expect(jsonLines("\n  \r\n\n")).toEqual([]);
  });

  it("numbers each non-blank line from 1, drops the CR before the LF and skips blank lines", () => {
    expect(jsonLines('{"a":1}\r\n\n  \n[2]\n"x"')).toEqual([
      {line: 1, value: {a: 1}, error: null},
      {line: 4, value: [2], error: null},
      {line: 5, value: "x", error: null}
    ]);
  });

  it("a line that does not parse carries the error, and the lines after it still parse", () => {
    const [bad, good] = jsonLines('{"a":\n{"b":2}\n');
    expect(bad).toMatchObject({line: 1, value: undefined});
    expect(bad!.error).toBeInstanceOf(SyntaxError);
    expect(good).toEqual({line: 2, value: {b: 2}, error: null});
  });

  it("parses with the reader's own parser", () => {
    expect(jsonLines("1\n2", (l) => Number(l) * 10).map((l) => l.value)).toEqual([10, 20]);
  });
});
