import {describe, expect, it} from "vitest";

import {ConfigError, parseRunConfig} from "../../../collector/config/load.ts";

/** Issue 11 items 7, 8, 10 and 12: bad numbers and bad documents are config errors with a location. */
function problems(text: string) {
  try {
    parseRunConfig(text, "run.yaml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

const base = (load: string, extra = "") => `target:
  base_url: http://127.0.0.1:8000/v1
  model: m
load: ${load}
${extra}`;

describe("typed numbers are bounded, with the reason in the message", () => {
  it.each([
    ["requests: 1e12", base("{mode: rate, values: [10], requests: 1000000000000}"), "load.requests", /10,000,000,000/],
    ["rate 1e12", base("{mode: rate, values: [1000000000000], requests: 10}"), "load.values[0]", /shards/],
    ["concurrency 1e9", base("{mode: concurrency, values: [1000000000], requests: 10}"), "load.values[0]", /shards/],
    [
      "prompt_tokens 1e8",
      base("{mode: concurrency, values: [1]}", "workload: {prompt_tokens: 100000000}"),
      "workload.prompt_tokens",
      /context/
    ],
    [
      "max_tokens 1e12",
      base("{mode: concurrency, values: [1]}", "workload: {max_tokens: 1000000000000}"),
      "workload.max_tokens",
      /context/
    ],
    [
      "interval_ms 3e9",
      base("{mode: concurrency, values: [1]}", "telemetry: {interval_ms: 3000000000}"),
      "telemetry.interval_ms",
      /2147483647 ms/
    ],
    [
      "fsync_interval_ms 3e9",
      base("{mode: concurrency, values: [1]}", "output: {fsync_interval_ms: 3000000000}"),
      "output.fsync_interval_ms",
      /fire such a timer at once/
    ],
    [
      "idle_ms 3e9",
      `target:\n  base_url: http://h/v1\n  model: m\n  timeouts: {idle_ms: 3000000000}\nload: {mode: concurrency, values: [1]}\n`,
      "target.timeouts.idle_ms",
      /24.8 days/
    ],
    ["cooldown_s 3e6", base("{mode: concurrency, values: [1], cooldown_s: 3000000}"), "load.cooldown_s", /24.8 days/]
  ])("%s", (_name, text, path, message) => {
    const p = problems(text);
    expect(p.map((x) => x.path)).toContain(path);
    const hit = p.find((x) => x.path === path)!;
    expect(hit.message).toMatch(message);
    expect(hit.line).not.toBeNull();
  });

  it("keeps legitimate scale: 50,000 req/s for 24 h, a million-token context, 100,000 streams", () => {
    const c = parseRunConfig(
      base(
        "{mode: poisson, values: [50000], duration_s: 86400, max_concurrency: 100000}",
        "workload: {prompt_tokens: 1000000, max_tokens: 32768}"
      ),
      "run.yaml"
    );
    expect(c.workload.prompt_tokens).toBe(1_000_000);
  });
});

describe("a target URL must be http(s)", () => {
  it.each([["not a url"], ["file:///etc/passwd"], ["ftp://h/v1"]])("%s is a config error naming the key", (url) => {
    const p = problems(
      `target:\n  base_url: ${JSON.stringify(url)}\n  model: m\nload: {mode: concurrency, values: [1]}\n`
    );
    expect(p).toEqual([expect.objectContaining({path: "target.base_url", line: 2})]);
    expect(p[0]!.message).toMatch(/http:\/\/ or https:\/\//);
  });
});

describe("a YAML alias bomb", () => {
  it("is a config error, not a crash or an exhausted heap", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({length: 9}, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const name = String.fromCharCode(98 + i);
        return `${name}: &${name} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
      }),
      "target: {base_url: http://h/v1, model: *j}",
      "load: {mode: concurrency, values: [1]}"
    ].join("\n");
    const p = problems(bomb);
    expect(p[0]!.message).toMatch(/invalid yaml: .*alias/);
    // named at the first alias of a node that holds aliases itself: `*b` on line 3 (b's own aliases of a)
    expect(p[0]).toMatchObject({line: 3, column: 8});
  });
});
