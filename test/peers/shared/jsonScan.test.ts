import {describe, expect, it} from "vitest";

import {lineColumn, printable, scanJson} from "../../../src/analysis/peers/shared/jsonScan.ts";
import {parseJsonExact} from "../../../src/analysis/peers/shared/parse.ts";

describe("scanJson: what JSON.parse cannot tell, in one pass", () => {
  it("long integer literals (16+ digits in the integer part) call for the exact parse; long fractions do not", () => {
    expect(scanJson('{"t": 1759522419154568925}').longInteger).toBe(true);
    expect(scanJson("[-9007199254740993]").longInteger).toBe(true);
    expect(scanJson("[1234567890123456]").longInteger).toBe(true); // 16 digits
    expect(scanJson("[123456789012345]").longInteger).toBe(false); // 15 digits: below 2^53 always
    expect(scanJson("[0.011791850253939629, 1.5e-17]").longInteger).toBe(false);
    expect(scanJson("[12345678901234567.5]").longInteger).toBe(false); // a float already
    expect(scanJson("[1e12345678901234567]").longInteger).toBe(false); // exponent digits
    expect(scanJson('{"id": "12345678901234567890"}').longInteger).toBe(false); // in a string
  });
  it("NaN and Infinity outside strings; brackets and NUL escapes inside strings are text", () => {
    expect(scanJson('{"a": NaN}').nonFinite).toBe(true);
    expect(scanJson('{"a": -Infinity}').nonFinite).toBe(true);
    expect(scanJson('{"a": "NaN Infinity"}').nonFinite).toBe(false);
    const s = scanJson('{"a": "[[[[\\"]]]] \\u0000"}', 2);
    expect(s).toEqual({tooDeepAt: -1, nulAt: -1, nonFinite: false, longInteger: false});
  });
  it("depth: the offset of the first bracket beyond the limit; a raw NUL outside a string", () => {
    expect(scanJson('[{"a": [1]}]', 2).tooDeepAt).toBe(7);
    expect(scanJson('[{"a": [1]}]', 3).tooDeepAt).toBe(-1);
    expect(scanJson("[1,\u0000]").nulAt).toBe(3);
  });
  it("parseJsonExact: the same values with or without the reviver", () => {
    expect(parseJsonExact('{"t": 1759522419154568925, "x": 0.5}')).toEqual({t: 1759522419154568925n, x: 0.5});
    expect(parseJsonExact('{"x": 0.011791850253939629, "n": 12}')).toEqual({x: 0.011791850253939629, n: 12});
    expect(parseJsonExact('{"a": NaN, "t": 1759522419154568925}')).toEqual({a: null, t: 1759522419154568925n});
  });
  it("lineColumn and printable", () => {
    expect(lineColumn("ab\ncd\nef", 4)).toBe("line 2 column 2");
    expect(lineColumn("abc", 0)).toBe("line 1 column 1");
    expect(printable("a\nb\u0000", 10)).toBe('"a\\nb\\u0000"');
    expect(printable("abcdef", 3)).toBe('"abc…"');
  });
});
