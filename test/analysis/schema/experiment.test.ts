import {describe, expect, it} from "vitest";

import {parseSpecText} from "../../../src/analysis/schema/configText.ts";
import {expandVariants, ExperimentPlanSpec, fillTemplate} from "../../../src/analysis/schema/experiment.ts";

const launcher = {kind: "process", command: ["srv", "--port", "{port}"]} as const;
const plan = (variants: unknown[]) => ExperimentPlanSpec.parse({name: "x", runs: ["r.yaml"], variants});

describe("expandVariants", () => {
  it("expands a flag grid × a named mapping into the cartesian product, in key then value order", () => {
    const vs = expandVariants(
      plan([
        {
          name: "vllm",
          launcher,
          grid: {"--max-num-seqs": [8, 16], mtp: {on: ["--speculative-config", '{"method":"mtp"}'], off: []}}
        }
      ])
    );
    // 2 values × 2 values = 4 variants; names: base, then each param slug and value slug
    expect(vs.map((v) => v.name)).toEqual([
      "vllm-max-num-seqs-8-mtp-on",
      "vllm-max-num-seqs-8-mtp-off",
      "vllm-max-num-seqs-16-mtp-on",
      "vllm-max-num-seqs-16-mtp-off"
    ]);
    expect(vs[0]!.extraArgs).toEqual(["--max-num-seqs", "8", "--speculative-config", '{"method":"mtp"}']);
    expect(vs[3]!.extraArgs).toEqual(["--max-num-seqs", "16"]);
    expect(vs[2]!.params).toEqual({"--max-num-seqs": "16", mtp: "on"});
  });

  it("a boolean flag value adds the bare flag (true) or nothing (false)", () => {
    const vs = expandVariants(plan([{name: "s", launcher, grid: {"--enable-prefix-caching": [true, false]}}]));
    expect(vs.map((v) => v.extraArgs)).toEqual([["--enable-prefix-caching"], []]);
  });

  it("a variant without a grid is itself; explicit variants keep their order", () => {
    const vs = expandVariants(
      plan([
        {name: "b", launcher},
        {name: "a", launcher}
      ])
    );
    expect(vs.map((v) => [v.name, v.extraArgs.length])).toEqual([
      ["b", 0],
      ["a", 0]
    ]);
  });

  it("refuses a non-flag parameter given as a plain list, and duplicate names", () => {
    expect(() => expandVariants(plan([{name: "s", launcher, grid: {mtp: ["on", "off"]}}]))).toThrow(
      /grid\.mtp: a parameter that is not a flag .* must map each value/
    );
    expect(() =>
      expandVariants(
        plan([
          {name: "a", launcher},
          {name: "a", launcher}
        ])
      )
    ).toThrow(/a appears twice/);
  });
});

describe("fillTemplate", () => {
  it("fills known placeholders and names an unknown one", () => {
    expect(fillTemplate("--port={port} -m {model_path}", {port: "81", model_path: "/m.gguf"}, "c")).toBe(
      "--port=81 -m /m.gguf"
    );
    expect(() => fillTemplate("{nope}", {port: "1"}, "launcher.command[2]")).toThrow(
      "launcher.command[2]: unknown placeholder {nope} (known: port)"
    );
  });
});

describe("plan parsing", () => {
  it("locates an unknown key and a bad launcher kind at file:line", () => {
    const text = [
      "name: e",
      "runs: [r.yaml]",
      "variants:",
      "  - name: a",
      "    launcher: {kind: process, command: [x]}",
      "    colour: red",
      "  - name: b",
      "    launcher: {kind: podman}"
    ].join("\n");
    const r = parseSpecText(text, "plan.yaml", ExperimentPlanSpec, "expected a mapping");
    expect(r.config).toBeNull();
    const at = r.problems.map((p) => `${p.file}:${p.line} ${p.path}`);
    expect(at).toContain("plan.yaml:6 variants[0].colour");
    expect(at.some((a) => a.startsWith("plan.yaml:8 variants[1].launcher"))).toBe(true);
  });
});

describe("the shipped example plan", () => {
  it("parses and expands into the four MTP × batch-size variants it describes", async () => {
    const {readFileSync} = await import("node:fs");
    const file = new URL("../../../configs/experiment.example.yaml", import.meta.url);
    const r = parseSpecText(readFileSync(file, "utf8"), "experiment.example.yaml", ExperimentPlanSpec, "plan");
    expect(r.problems).toEqual([]);
    const names = expandVariants(r.config!).map((v) => v.name);
    expect(names).toEqual([
      "qwen-max-num-seqs-16-mtp-off",
      "qwen-max-num-seqs-16-mtp-on",
      "qwen-max-num-seqs-32-mtp-off",
      "qwen-max-num-seqs-32-mtp-on"
    ]);
  });

  it("{env.NAME} names a missing variable without listing the environment", () => {
    expect(() => fillTemplate("{env.HF_TOKEN}", {"env.PATH": "/bin", port: "1"}, "launcher.env.HF_TOKEN")).toThrow(
      "launcher.env.HF_TOKEN: {env.HF_TOKEN}: the environment variable HF_TOKEN is not set"
    );
    expect(() => fillTemplate("{nope}", {"env.PATH": "/bin", port: "1"}, "x")).toThrow("(known: port)");
  });
});
