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
});
