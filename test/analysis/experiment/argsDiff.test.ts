import {describe, expect, it} from "vitest";

import {argsDiff, options} from "../../../src/analysis/experiment/argsDiff.ts";

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
