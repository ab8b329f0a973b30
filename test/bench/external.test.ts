import {describe, expect, it} from "vitest";

import {childrenCpu, externalClients} from "../../scripts/lib/benchClient/external.ts";

describe("bench:client side by side (issue 17)", () => {
  it("reads the children's CPU from bash `times`: the second line, user + system", () => {
    // bash prints the shell's own times, then its children's (bash manual, `times` builtin)
    expect(childrenCpu("0m0.003s 0m0.000s\n0m0.464s 0m0.042s\n")).toBeCloseTo(0.506, 9);
    expect(childrenCpu("0m0.001s 0m0.002s\n2m3.500s 0m1.250s\n")).toBeCloseTo(124.75, 9);
    expect(() => childrenCpu("0m0.001s 0m0.002s\n")).toThrow(/unexpected `times` output/);
  });

  it("takes --external NAME=COMMAND, repeatable, the command keeping its own '='", () => {
    expect(
      externalClients(["--quick", "--external", "vllm=python3 c.py --x=1 {base_url}", "--external", "b=run {streams}"])
    ).toEqual([
      {name: "vllm", command: "python3 c.py --x=1 {base_url}"},
      {name: "b", command: "run {streams}"}
    ]);
    expect(() => externalClients(["--external", "no-name"])).toThrow(/NAME=COMMAND/);
    expect(() => externalClients(["--external"])).toThrow(/NAME=COMMAND/);
  });
});
