import {describe, expect, it} from "vitest";
import {z} from "zod";

import {dottedPath, expectation, jsonPath, keyPath, zodIssueList} from "../../../src/analysis/util/zodIssues.ts";

describe("zod issues as locations and messages", () => {
  it("dottedPath joins keys and indexes; the value itself is the empty path", () => {
    expect(dottedPath([])).toBe("");
    expect(dottedPath(["load", "values", 0])).toBe("load.values.0");
  });

  it("keyPath writes a config's keys with dots and its indexes in brackets, unquoted", () => {
    expect(keyPath([])).toBe("");
    expect(keyPath(["load", "values", 0])).toBe("load.values[0]");
    expect(keyPath(["target", "headers", "X-Api-Key"])).toBe("target.headers.X-Api-Key");
  });

  it("jsonPath writes identifiers with dots, indexes in brackets and other keys quoted", () => {
    expect(jsonPath([])).toBe("$");
    expect(jsonPath(["benchmarks", 0, "metrics"])).toBe("$.benchmarks[0].metrics");
    expect(jsonPath(["p99.9", "x-y"], "$.records")).toBe('$.records["p99.9"]["x-y"]');
  });

  it("expectation turns a zod message into the continuation of 'expected …'", () => {
    expect(expectation("Invalid input: expected number, received string")).toBe("number, received string");
    expect(expectation("Expected at least one benchmark")).toBe("at least one benchmark");
  });

  it("zodIssueList keeps every issue, its path formatted as asked", () => {
    const r = z.object({a: z.number(), b: z.array(z.string())}).safeParse({a: "1", b: [1]});
    expect(r.success).toBe(false);
    const issues = zodIssueList(r.error!);
    expect(issues.map((i) => i.path)).toEqual(["a", "b.0"]);
    expect(zodIssueList(r.error!, (p) => jsonPath(p)).map((i) => i.path)).toEqual(["$.a", "$.b[0]"]);
    expect(issues.every((i) => i.message.length > 0)).toBe(true);
  });
});
