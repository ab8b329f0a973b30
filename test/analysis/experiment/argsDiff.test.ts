import {describe, expect, it} from "vitest";

import {argsDiff, options} from "../../../src/analysis/experiment/argsDiff.ts";
import {experimentView, plannedCommand} from "../../../src/analysis/experiment/view.ts";

describe("argsDiff", () => {
  it("reads flags with their values, positionals alone, and --flag=value as one", () => {
    expect(options(["llama-server", "-m", "/m.gguf", "--cont-batching", "--port=8080", "-c", "-1"])).toEqual([
      "llama-server",
      "-m /m.gguf",
      "--cont-batching",
      "--port=8080",
      "-c -1"
    ]);
  });

  it("keeps what all share as common and shows each command's own options, absent flags named", () => {
    const off = ["srv", "-m", "/m.gguf", "--parallel", "2", "--port", "9001"];
    const on = [
      "srv",
      "-m",
      "/m.gguf",
      "--parallel",
      "2",
      "--port",
      "9002",
      "--spec-type",
      "draft-simple",
      "-md",
      "/m.gguf"
    ];
    const d = argsDiff([off, on]);
    expect(d.common).toEqual(["srv", "-m /m.gguf", "--parallel 2"]);
    expect(d.own[0]).toEqual(["--port 9001", "(no --spec-type)", "(no -md)"]);
    expect(d.own[1]).toEqual(["--port 9002", "--spec-type draft-simple", "-md /m.gguf"]);
  });

  it("a single command is all common; none is empty", () => {
    expect(argsDiff([["a", "--x", "1"]])).toEqual({common: ["a", "--x 1"], own: [[]]});
    expect(argsDiff([])).toEqual({common: [], own: []});
  });
});

describe("experimentView", () => {
  const variant = (name: string, params: Record<string, string>, command: string[] | null, baseUrl: string | null) => ({
    name,
    params,
    labels: {},
    launcher: "process" as const,
    command,
    baseUrl,
    status: "collected" as const,
    reason: null,
    readyMs: 100,
    startedAt: null,
    endedAt: null,
    logFile: null,
    logTail: null,
    bundles: [],
    teardown: []
  });
  const record = (variants: ReturnType<typeof variant>[]) => ({
    kind: "inferscope.experiment" as const,
    schemaVersion: 1 as const,
    name: "e",
    description: null,
    planSha256: "0",
    plan: {},
    startedAt: "2026-12-01T00:00:00.000Z",
    finishedAt: null,
    status: "complete" as const,
    order: variants.map((v) => v.name),
    variants,
    resumes: [],
    group: {id: "experiment-e", title: "e", bundles: []}
  });

  it("diffs launch commands without the ports and container names the experiment assigned", () => {
    const v = experimentView(
      record([
        variant("a-spec-off", {spec: "off"}, ["srv", "--port", "9001", "-m", "/m"], "http://127.0.0.1:9001"),
        variant(
          "a-spec-on",
          {spec: "on"},
          ["srv", "--port", "9002", "-m", "/m", "--spec-type", "x"],
          "http://127.0.0.1:9002"
        ),
        variant(
          "d",
          {},
          ["docker", "run", "--name", "inferscope-e-d-abc123", "--label", "inferscope.variant=d", "img"],
          null
        )
      ])
    );
    expect(plannedCommand(v.variants[0]!.record)).toEqual(["srv", "--port", "{port}", "-m", "/m"]);
    expect(plannedCommand(v.variants[2]!.record)).toEqual(["docker", "run", "--name", "{container}", "img"]);
    expect(v.variants[1]!.ownArgs).toContain("--spec-type x");
    expect(v.variants[0]!.ownArgs).toContain("(no --spec-type)");
    expect(v.variants[0]!.ownArgs).toContain("--port {port}");
  });

  it("pairs spec on with its off twin (and off-repeat) when every other parameter is equal", () => {
    const r = record([
      variant("p1-off", {"--parallel": "1", mtp: "off"}, null, null),
      variant("p1-on", {"--parallel": "1", mtp: "on"}, null, null),
      variant("p2-off", {"--parallel": "2", mtp: "off"}, null, null),
      variant("p2-on", {"--parallel": "2", mtp: "on"}, null, null),
      variant("p2-off-repeat", {"--parallel": "2", mtp: "off-repeat"}, null, null)
    ]);
    expect(experimentView(r).specPairs).toEqual([
      {param: "mtp", on: "p1-on", off: "p1-off", offRepeat: null},
      {param: "mtp", on: "p2-on", off: "p2-off", offRepeat: "p2-off-repeat"}
    ]);
  });
});
