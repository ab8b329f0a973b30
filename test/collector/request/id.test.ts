import {describe, expect, it} from "vitest";

import {caseRequestId, loadRequestId, PROBE_REQUEST_ID} from "../../../collector/request/id.ts";

describe("request ids", () => {
  it("a load-point request is <runId>-<point>-r<repeat>-<w|m><index> (the analyzer's ledger reads it back)", () => {
    expect(loadRequestId("ab12cd", "c8", 0, "measure", 17)).toBe("ab12cd-c8-r0-m17");
    expect(loadRequestId("ab12cd", "poisson-60", 2, "warmup", 0)).toBe("ab12cd-poisson-60-r2-w0");
  });

  it("a case item adds the load point it ran under and, for several turns, the turn from 1", () => {
    const item = {runId: "ab12cd", caseId: "case_05", itemId: "i3", repeat: 1};
    expect(caseRequestId({...item, underLoad: null})).toBe("ab12cd-case_05-i3-r1");
    expect(caseRequestId({...item, underLoad: "c8"})).toBe("ab12cd-case_05-i3-r1-c8");
    expect(caseRequestId({...item, underLoad: null}, {index: 0, of: 1})).toBe("ab12cd-case_05-i3-r1");
    expect(caseRequestId({...item, underLoad: null}, {index: 1, of: 3})).toBe("ab12cd-case_05-i3-r1-t2");
  });

  it("the probe's request has one fixed id", () => {
    expect(PROBE_REQUEST_ID).toBe("inferscope-probe");
  });
});
