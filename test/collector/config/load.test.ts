import {execFileSync} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";
import {parse as parseYaml} from "yaml";

import {RunConfigSpec} from "../../../src/analysis/schema/config.ts";
import {ConfigError, parseRunConfig, resolvedConfigYaml} from "../../../collector/config/load.ts";
import {createRedactor, redactionMark} from "../../../collector/redact.ts";
import {CliError} from "../../../collector/cliError.ts";
import {readConfig} from "../../../collector/commands/collect.ts";
import {defaultEffects, type Effects} from "../../../collector/effects.ts";

function problems(text: string) {
  try {
    parseRunConfig(text, "run.yaml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

const valid = `target:
  base_url: http://127.0.0.1:8000/v1
  model: m
load: {mode: concurrency, values: [1, 2]}
`;

describe("parseRunConfig", () => {
  it("fills every default of a minimal config", () => {
    const c = parseRunConfig(valid, "run.yaml");
    expect(c.workload.prompt_tokens).toBe(512);
    expect(c.output.fsync_interval_ms).toBe(1000);
    expect(Array.isArray(c.load) ? c.load[0]!.requests : c.load.requests).toBe(100);
  });

  it("names file, line, column and key path of an unknown key", () => {
    const p = problems(`${valid}telemetry:\n  interval_ms: 200\n  gpus: on\n`);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({
      file: "run.yaml",
      line: 7,
      column: 3,
      path: "telemetry.gpus",
      message: 'unknown key "gpus"'
    });
    expect(new ConfigError(p).message).toBe('run.yaml:7:3: telemetry.gpus: unknown key "gpus"');
  });

  it("points into the right element of a load list", () => {
    const p = problems(`target: {base_url: x, model: m}
load:
  - mode: concurrency
    values: [1]
  - mode: poison
    values: [2]
    requets: 5
`);
    expect(p.map((x) => `${x.line}:${x.path}`)).toEqual(["5:load[1].mode", "7:load[1].requets"]);
  });

  it("reports a wrong type at the value and a missing key at its parent", () => {
    const p = problems(`target:\n  base_url: x\nworkload:\n  max_tokens: many\nload: {mode: rate, values: [1]}\n`);
    expect(p.find((x) => x.path === "target.model")).toMatchObject({
      line: 2,
      message: expect.stringContaining("missing")
    });
    expect(p.find((x) => x.path === "workload.max_tokens")).toMatchObject({line: 4, column: 15});
  });

  it("reports YAML syntax errors and duplicate keys with their line", () => {
    expect(problems("target: [\n")[0]!.message).toMatch(/^invalid yaml/);
    const dup = problems(`${valid}load: {mode: rate, values: [1]}\n`);
    expect(dup[0]).toMatchObject({line: 5, message: expect.stringContaining("unique")});
  });

  it("rejects requests and duration_s together", () => {
    const p = problems(
      `target: {base_url: x, model: m}\nload: {mode: rate, values: [1], requests: 2, duration_s: 3}\n`
    );
    expect(p[0]).toMatchObject({line: 2, path: "load", message: "give either requests or duration_s, not both"});
  });
});

describe("resolvedConfigYaml", () => {
  it("re-parses with every default and no secret: header values and URL tokens become marks", () => {
    const c = parseRunConfig(
      `target:
  base_url: http://user:pa55word-x@127.0.0.1:8000/v1?token=sekret-token-1
  model: m
  api_key_env: MY_KEY
  headers: {x-api-key: abcdefgh12345, x-tenant: acme}
load: {mode: concurrency, values: [1]}
`,
      "run.yaml"
    );
    const text = resolvedConfigYaml(c, createRedactor(["abcdefgh12345", "pa55word-x", "sekret-token-1"]));
    expect(text).not.toMatch(/abcdefgh12345|pa55word-x|sekret-token-1|acme/);
    const back = RunConfigSpec.parse(parseYaml(text));
    expect(back.target.headers["x-tenant"]).toBe(redactionMark("acme"));
    expect(back.target.api_key_env).toBe("MY_KEY");
    expect(back.workload).toEqual(c.workload);
  });
});

describe("an arrival rate whose plan spans more than a timer can wait (audit: 10 requests at 1e-7 req/s)", () => {
  it("is refused at its value, like a duration_s above 24.8 days", () => {
    const p = problems(
      `target: {base_url: http://127.0.0.1:8000/v1, model: m}\nload: {mode: poisson, values: [5, 0.0000001], requests: 10, warmup: 0}\n`
    );
    // 10 requests ÷ 1e-7 req/s = 1e8 s > 2 147 483 s; 10 ÷ 5 = 2 s is fine
    expect(p.map((x) => [x.path, x.message])).toEqual([
      ["load.values[1]", "10 requests at 1e-7 req/s span 100,000,000 s: above 2147483 s (24.8 days)"]
    ]);
    expect(p[0]!.line).toBe(2);
    // 2 147 483 s exactly is allowed: 1 request (no warmup) at 1 / 2 147 483 req/s
    expect(() =>
      parseRunConfig(
        `target: {base_url: http://127.0.0.1:8000/v1, model: m}\nload: {mode: rate, values: [${1 / 2147483}], requests: 1, warmup: 0}\n`,
        "run.yaml"
      )
    ).not.toThrow();
  });
});

describe("readConfig (collect, probe, k8s, experiment): hardware ids against the shipped catalogue", () => {
  const read = (text: string) =>
    readConfig({files: {readFile: async () => Buffer.from(text)}} as unknown as Pick<Effects, "files">, "run.yaml");

  it("refuses a card or price id the catalogue does not know, at its line, before any request (exit 2)", async () => {
    const text = `${valid}hardware:\n  gpu: h100-sxm5\n  prices:\n    - {gpu: h100-sxm, kind: owned, usd_per_gpu_hour: 1.85}\n    - {gpu: h100, kind: owned, usd_per_gpu_hour: 2}\n`;
    const e = await read(text).then(
      () => null,
      (err: unknown) => err
    );
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(2);
    // line 6: gpu: h100-sxm5; line 9: the second price (h100-sxm is a catalogue id, h100 is not)
    expect((e as CliError).message).toContain('run.yaml:6:8: hardware.gpu: "h100-sxm5" is not a catalogue id');
    expect((e as CliError).message).toContain('run.yaml:9:13: hardware.prices.1.gpu: "h100" is not a catalogue id');
    expect((e as CliError).message).not.toContain("prices.0");
  });

  it("refuses bytes that are not UTF-8 at their line and column, instead of sending U+FFFD", async () => {
    const bytes = Buffer.concat([
      Buffer.from("target:\n  base_url: http://127.0.0.1:8000/v1\n  model: fake-"),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("-model\nload: {mode: concurrency, values: [1]}\n")
    ]);
    const e = await readConfig(
      {files: {readFile: async () => bytes}} as unknown as Pick<Effects, "files">,
      "run.yaml"
    ).then(
      () => null,
      (err: unknown) => err
    );
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(2);
    // line 3 is "  model: fake-" (14 characters) then 0xff: column 15; the offset is the length of the text before it
    const offset = "target:\n  base_url: http://127.0.0.1:8000/v1\n  model: fake-".length;
    expect((e as CliError).message).toBe(`invalid config:\nrun.yaml:3:15: not UTF-8 (byte 0xff at offset ${offset})`);
  });

  it("accepts catalogue ids and cpu-host", async () => {
    const c = await read(
      `${valid}hardware:\n  gpu: h100-sxm\n  prices:\n    - {gpu: cpu-host, usd_per_gpu_hour: 0.1}\n`
    );
    expect(c.hardware?.gpu).toBe("h100-sxm");
  });
});

describe("readConfig: a config that is not a regular file", () => {
  it("a FIFO is refused at once (exit 2), not read forever", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inferscope-fifo-"));
    try {
      const fifo = join(dir, "run.yaml");
      execFileSync("mkfifo", [fifo]);
      const e = await readConfig(defaultEffects(), fifo).then(
        () => null,
        (err: unknown) => err
      );
      expect(e).toBeInstanceOf(CliError);
      expect((e as CliError).exitCode).toBe(2);
      expect((e as CliError).message).toBe(`cannot read config ${fifo}: not a regular file (a FIFO, socket or device)`);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
