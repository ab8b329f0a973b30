import {describe, expect, it} from "vitest";
import {z} from "zod";

import {JsonlValidator} from "../../../src/analysis/ingest/jsonl.ts";
import {LineSplitter} from "../../../src/analysis/util/lines.ts";

const Rec = z.strictObject({seq: z.number().int(), v: z.number()});

function run(text: string) {
  const v = new JsonlValidator("f.jsonl", Rec);
  const s = new LineSplitter();
  const out: unknown[] = [];
  for (const line of s.push(text)) {
    const r = v.line(line);
    if (r) out.push(r);
  }
  const {last, endedWithNewline} = s.finish();
  if (last !== null) {
    const r = v.line(last);
    if (r) out.push(r);
  }
  v.finish(endedWithNewline);
  return {records: out, issues: v.issues};
}

describe("JSONL validation", () => {
  it("collects every problem with file:line and field path, and keeps going", () => {
    const {records, issues} = run('{"seq":0,"v":1}\n{"seq":1,"v":"x"}\n{"seq":2,"v":3,"extra":1}\n{"seq":3,"v":4}\n');
    expect(records).toHaveLength(2);
    expect(issues.map((i) => [i.line, i.path, i.severity])).toEqual([
      [2, "v", "error"],
      [3, null, "error"]
    ]);
  });

  it("a torn final line is a warning and dropped; a bad line elsewhere is an error", () => {
    const torn = run('{"seq":0,"v":1}\n{"seq":1,"v":2}\n{"seq":2,"v"');
    expect(torn.records).toHaveLength(2);
    expect(torn.issues).toMatchObject([{severity: "warning", code: "torn_tail", line: 3}]);
    const mid = run('{"seq":0,"v":1}\n{"seq":1,"v\n{"seq":2,"v":3}\n');
    expect(mid.issues).toMatchObject([{severity: "error", code: "json", line: 2}]);
  });

  it("half a record followed by a newline is not a torn write: an error, not a warning", () => {
    // a crash cuts a write short before its newline; a final bad line that ends in one was written whole
    const whole = run('{"seq":0,"v":1}\n{"seq":1,"v"\n');
    expect(whole.records).toHaveLength(1);
    expect(whole.issues).toMatchObject([{severity: "error", code: "json", line: 2}]);
  });

  it("detects seq gaps and repeats", () => {
    const {issues} = run('{"seq":0,"v":1}\n{"seq":2,"v":1}\n{"seq":2,"v":1}\n');
    expect(issues.map((i) => i.message)).toEqual([
      "gap: expected seq 1, got 2",
      "seq 2 repeats or goes back (expected 3)"
    ]);
  });

  it("splits lines across chunk boundaries and CRLF, and reports a missing final newline as info", () => {
    const s = new LineSplitter();
    expect(s.push('{"a":')).toEqual([]);
    expect(s.push('1}\r\n{"b"')).toEqual(['{"a":1}']);
    expect(s.push(":2}")).toEqual([]);
    expect(s.finish()).toEqual({last: '{"b":2}', endedWithNewline: false});
    const r = run('{"seq":0,"v":1}');
    expect(r.issues).toMatchObject([{severity: "info", code: "no_final_newline"}]);
  });

  it("a blank line inside a file is an error", () => {
    expect(run('{"seq":0,"v":1}\n\n{"seq":1,"v":1}\n').issues).toMatchObject([{code: "blank_line", line: 2}]);
  });

  describe("a name given twice in one record", () => {
    const Open = z.object({seq: z.number().int(), v: z.number()}).loose();

    function runOpen(text: string) {
      const v = new JsonlValidator("f.jsonl", Open);
      const out: unknown[] = [];
      for (const line of text.split("\n").slice(0, -1)) {
        const r = v.line(line);
        if (r) out.push(r);
      }
      v.finish(true);
      return {records: out, issues: v.issues};
    }

    it("is an error at its line and column, and the record is not read (JSON.parse would keep the last)", () => {
      // the repeated "v" opens at the 16th character: {"seq":0,"v":1, is 15 characters
      const {records, issues} = runOpen('{"seq":0,"v":1,"v":2}\n{"seq":1,"v":3}\n');
      expect(records).toEqual([{seq: 1, v: 3}]);
      expect(issues).toEqual([
        expect.objectContaining({severity: "error", code: "duplicate_key", file: "f.jsonl", line: 1})
      ]);
      expect(issues[0]!.message).toBe('"$.v" is given twice (column 16); the reader would keep the last');
    });

    it("is found inside nested objects and in lines not written by JSON.stringify (spaces)", () => {
      const nested = runOpen('{"seq":0,"v":1,"o":{"a":1,"a":1}}\n');
      expect(nested.issues.map((i) => [i.code, i.line])).toEqual([["duplicate_key", 1]]);
      expect(nested.issues[0]!.message).toContain('"$.o.a" is given twice (column 27)');
      const spaced = runOpen('{ "seq": 0, "v": 1, "v": 2 }\n');
      expect(spaced.issues[0]!.message).toContain('"$.v" is given twice (column 21)');
    });

    it("does not refuse a line written with spaces or escapes that repeats no name", () => {
      const {records, issues} = runOpen('{ "seq": 0, "v": 1.50, "s": "\\u0041" }\n{"seq":1,"v":2}\n');
      expect(issues).toEqual([]);
      expect(records).toEqual([
        {seq: 0, v: 1.5, s: "A"},
        {seq: 1, v: 2}
      ]);
    });

    it("keeps checking the sequence after it, unless seq itself is the repeated name", () => {
      const other = runOpen('{"seq":0,"v":1}\n{"seq":1,"v":1,"v":2}\n{"seq":3,"v":1}\n');
      expect(other.issues.map((i) => [i.code, i.line])).toEqual([
        ["duplicate_key", 2],
        ["seq", 3]
      ]);
      const seq = runOpen('{"seq":0,"v":1}\n{"seq":1,"seq":7,"v":1}\n{"seq":2,"v":1}\n');
      expect(seq.issues.map((i) => [i.code, i.line])).toEqual([["duplicate_key", 2]]);
    });
  });
});
