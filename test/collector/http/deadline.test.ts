import {describe, expect, it} from "vitest";

import {deadline, type DeadlineState} from "../../../collector/http/deadline.ts";

const timeouts = {connectMs: 1, headersMs: 2, idleMs: 3, closeMs: 4};
const state = (s: Partial<DeadlineState>): DeadlineState => ({
  phase: "connect",
  tStart: 0,
  tDisp: null,
  tLastData: 0,
  tTerminal: null,
  sawDone: false,
  ...s
});

describe("deadline", () => {
  it("counts connect from the call, headers from dispatch, the body from the last chunk", () => {
    expect(deadline(timeouts, state({}))).toMatchObject({at: 1e6, cls: "conn_refused"});
    expect(deadline(timeouts, state({phase: "headers", tDisp: 5e6}))).toMatchObject({at: 7e6, cls: "timeout_headers"});
    expect(deadline(timeouts, state({phase: "body", tLastData: 10e6}))).toMatchObject({at: 13e6, cls: "timeout_body"});
  });

  it("after the terminal marker the close deadline applies when it comes first", () => {
    const d = deadline(
      {...timeouts, idleMs: 100},
      state({phase: "body", tLastData: 10e6, tTerminal: 10e6, sawDone: true})
    );
    expect(d).toEqual({at: 14e6, cls: "close_timeout", what: "the stream stayed open more than 4 ms after its [DONE]"});
  });

  it("the total deadline caps every phase", () => {
    expect(deadline({...timeouts, totalMs: 0.5}, state({}))).toMatchObject({at: 0.5e6, cls: "timeout_total"});
  });
});
