import {describe, expect, it} from "vitest";

import {argsDiff, options} from "../../../src/analysis/experiment/argsDiff.ts";
import {experimentView, plannedCommand, specPairs} from "../../../src/analysis/experiment/view.ts";
import type {ExperimentRecord, VariantRecord} from "../../../src/analysis/schema/experiment.ts";

/** A variant record with only what the view reads set. */
function variant(name: string, o: Partial<VariantRecord> = {}): VariantRecord {
  return {
    name,
    params: {},
    labels: {},
    launcher: "process",
    command: null,
    baseUrl: null,
    status: "collected",
    reason: null,
    readyMs: null,
    startedAt: null,
    endedAt: null,
    logFile: null,
    logTail: null,
    bundles: [],
    teardown: [],
    ...o
  };
}
const record = (variants: VariantRecord[]): ExperimentRecord => ({
  kind: "inferscope.experiment",
  schemaVersion: 1,
  name: "e",
  description: null,
  planSha256: "0",
  plan: {},
  startedAt: "2026-12-01T00:00:00.000Z",
  finishedAt: null,
  status: "complete",
  order: variants.map((v) => v.name),
  variants,
  resumes: [],
  group: {id: "experiment-e", title: "e", bundles: []}
});

describe("options: how a command line splits into flags and values", () => {
  it("a flag at the end stands alone; two words without a dash stay two; a short flag is a flag", () => {
    expect(options(["srv", "--verbose"])).toEqual(["srv", "--verbose"]);
    expect(options(["srv", "x"])).toEqual(["srv", "x"]);
    expect(options(["-a", "-b"])).toEqual(["-a", "-b"]);
    expect(options(["--port=1", "2"])).toEqual(["--port=1", "2"]);
  });

  it("only flags a command lacks are named as absent, never positional words", () => {
    expect(
      argsDiff([
        ["srv", "a"],
        ["srv", "b"]
      ])
    ).toEqual({common: ["srv"], own: [["a"], ["b"]]});
  });
});

describe("specPairs: which parameter switches speculation, with which values", () => {
  const pairOf = (param: string, on: string, off: string, repeat?: string) =>
    specPairs(
      record([
        variant("on", {params: {[param]: on}}),
        variant("off", {params: {[param]: off}}),
        ...(repeat === undefined ? [] : [variant("rep", {params: {[param]: repeat}})])
      ])
    );

  it("names: spec, mtp, eagle, draft (any case, dashes in front); not a name that only contains one", () => {
    for (const p of ["spec", "--mtp", "EAGLE", "draft", "speculative-decoding"])
      expect(pairOf(p, "on", "off")).toHaveLength(1);
    for (const p of ["xmtp", "mtp-len", "spec2"]) expect(pairOf(p, "on", "off")).toEqual([]);
  });

  it("values: on/true/yes/1 against off/false/no/0, whole values only", () => {
    expect(pairOf("mtp", "true", "false")).toHaveLength(1);
    expect(pairOf("mtp", "1", "0")).toHaveLength(1);
    expect(pairOf("mtp", "won", "off")).toEqual([]);
    expect(pairOf("mtp", "onx", "off")).toEqual([]);
    expect(pairOf("mtp", "on", "xoff")).toEqual([]);
    expect(pairOf("mtp", "on", "offx")).toEqual([]);
  });

  it("the noise reference: off-repeat, offrepeat, off2, off-2, off-again; not anything starting or ending so", () => {
    for (const r of ["off-repeat", "offrepeat", "off2", "off-2", "offagain", "off-again"])
      expect(pairOf("mtp", "on", "off", r)[0]!.offRepeat).toBe("rep");
    for (const r of ["xoff-repeat", "off-repeat-x"]) expect(pairOf("mtp", "on", "off", r)[0]!.offRepeat).toBeNull();
  });

  it("an on variant without an off twin makes no pair", () => {
    expect(specPairs(record([variant("on", {params: {mtp: "on"}})]))).toEqual([]);
  });
});

describe("plannedCommand: what the experiment assigned, written back as placeholders", () => {
  it("keeps a command whose URL has no port, and words that merely contain 'null'", () => {
    expect(plannedCommand(variant("a", {command: ["srv", "null"], baseUrl: null}))).toEqual(["srv", "null"]);
    expect(plannedCommand(variant("a", {command: ["srv", "--x", "9"], baseUrl: "http://example"}))).toEqual([
      "srv",
      "--x",
      "9"
    ]);
  });

  it("reads the port at the end of the URL (an IPv6 host has colons before it)", () => {
    expect(
      plannedCommand(variant("a", {command: ["srv", "--port", "9001", "-n", "1"], baseUrl: "http://[::1]:9001"}))
    ).toEqual(["srv", "--port", "{port}", "-n", "1"]);
  });

  it("drops only the experiment's own labels and names only its own container", () => {
    const cmd = [
      "docker",
      "run",
      "--label",
      "team=x",
      "--label",
      "x.inferscope.y=1",
      "--label",
      "inferscope.variant=v"
    ];
    expect(plannedCommand(variant("d", {command: [...cmd, "--name", "mybox", "inferscope-tool"]}))).toEqual([
      "docker",
      "run",
      "--label",
      "team=x",
      "--label",
      "x.inferscope.y=1",
      "--name",
      "mybox",
      "inferscope-tool"
    ]);
  });
});

describe("experimentView", () => {
  it("diffs only the commands there are; a variant without one has no own options; failures are the failed starts and collections", () => {
    const v = experimentView(
      record([
        variant("a", {command: ["srv", "-x", "1"]}),
        variant("b", {command: ["srv", "-x", "2"], status: "start_failed"}),
        variant("ext", {launcher: "external", status: "collect_failed"}),
        variant("c", {status: "interrupted"}),
        variant("d", {status: "pending"})
      ])
    );
    expect(v.commonArgs).toEqual(["srv"]);
    expect(v.variants.map((x) => x.ownArgs)).toEqual([["-x 1"], ["-x 2"], [], [], []]);
    expect(v.failures.map((f) => f.name)).toEqual(["b", "ext"]);
  });
});

describe("experimentView on launched variants", () => {
  const launched = (name: string, params: Record<string, string>, command: string[] | null, baseUrl: string | null) =>
    variant(name, {params, command, baseUrl});

  it("diffs launch commands without the ports and container names the experiment assigned", () => {
    const v = experimentView(
      record([
        launched("a-spec-off", {spec: "off"}, ["srv", "--port", "9001", "-m", "/m"], "http://127.0.0.1:9001"),
        launched(
          "a-spec-on",
          {spec: "on"},
          ["srv", "--port", "9002", "-m", "/m", "--spec-type", "x"],
          "http://127.0.0.1:9002"
        ),
        launched(
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
      launched("p1-off", {"--parallel": "1", mtp: "off"}, null, null),
      launched("p1-on", {"--parallel": "1", mtp: "on"}, null, null),
      launched("p2-off", {"--parallel": "2", mtp: "off"}, null, null),
      launched("p2-on", {"--parallel": "2", mtp: "on"}, null, null),
      launched("p2-off-repeat", {"--parallel": "2", mtp: "off-repeat"}, null, null)
    ]);
    expect(experimentView(r).specPairs).toEqual([
      {param: "mtp", on: "p1-on", off: "p1-off", offRepeat: null},
      {param: "mtp", on: "p2-on", off: "p2-off", offRepeat: "p2-off-repeat"}
    ]);
  });
});
