import {describe, expect, it} from "vitest";

import {adviceFor, GATE_ADVICE} from "../../../src/analysis/gates/advice.ts";

describe("what to do about a verdict (issue 18)", () => {
  const reasons = ["G6 client_health: event-loop delay p99 9.10 ms > 5 ms", "G4 sample_size: n=4 < 20"];

  it("advises on each gate that warned or failed, once, in the order of the reasons", () => {
    const gates = [
      {id: "G4", status: "fail"},
      {id: "G6", status: "warn"}
    ];
    expect(adviceFor([...reasons, reasons[0]!], gates)).toEqual([GATE_ADVICE.G6, GATE_ADVICE.G4]);
    expect(GATE_ADVICE.G6!.en).toMatch(/quieter machine.*fewer concurrent streams.*smaller preset/);
    expect(GATE_ADVICE.G6!.zh).toMatch(/空闲/);
  });

  it("has nothing to say about missing evidence (not evaluable) or a gate without advice", () => {
    expect(adviceFor(reasons, [{id: "G6", status: "not_evaluable"}])).toEqual([]);
    expect(adviceFor(["G30 request_accounting: 5 lost"], [{id: "G30", status: "fail"}])).toEqual([]);
  });

  it("says what to do about too few samples, and reads a gate id only at the start of a reason", () => {
    expect(GATE_ADVICE.G4!.en).toMatch(/^What to do: too few successful requests .* raise the load points' `requests`/);
    expect(GATE_ADVICE.G4!.zh).toMatch(/^怎么办：成功请求太少/);
    const gates = [{id: "G6", status: "warn"}];
    expect(adviceFor(["the client was slow (see G6 client_health)", "no gate at all"], gates)).toEqual([]);
  });
});
