import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {classifyPayload, StreamAccumulator} from "../../collector/http/events.ts";
import {streamRequest} from "../../collector/http/stream.ts";
import {startFakeServer, type FakeServer} from "../../collector/fake/index.ts";

/** Tool calls are assembled from streamed fragments (by index) so the cases can validate them. */
describe("StreamAccumulator assembles tool calls", () => {
  const chunk = (tc: unknown) => JSON.stringify({choices: [{index: 0, delta: {tool_calls: tc}}]});

  it("joins name and argument fragments per index, only when text is kept", () => {
    const acc = new StreamAccumulator(true);
    acc.push(chunk([{index: 0, id: "a", type: "function", function: {name: "get_weather", arguments: ""}}]), undefined);
    acc.push(chunk([{index: 0, function: {arguments: '{"city":'}}]), undefined);
    acc.push(
      chunk([{index: 1, id: "b", function: {name: "get_time", arguments: '{"timezone":"Asia/Tokyo"}'}}]),
      undefined
    );
    acc.push(chunk([{index: 0, function: {arguments: '"Paris"}'}}]), undefined);
    expect(acc.toolCalls).toEqual([
      {index: 0, id: "a", name: "get_weather", arguments: '{"city":"Paris"}'},
      {index: 1, id: "b", name: "get_time", arguments: '{"timezone":"Asia/Tokyo"}'}
    ]);
    const off = new StreamAccumulator(false);
    off.push(chunk([{index: 0, function: {name: "x", arguments: "{}"}}]), undefined);
    expect(off.toolCalls).toEqual([]);
  });

  it("a new id on a reused index starts a new call", () => {
    const acc = new StreamAccumulator(true);
    acc.push(chunk([{index: 0, id: "a", function: {name: "f", arguments: "{}"}}]), undefined);
    acc.push(chunk([{index: 0, id: "b", function: {name: "g", arguments: "{}"}}]), undefined);
    expect(acc.toolCalls.map((c) => c.name)).toEqual(["f", "g"]);
  });

  it("keeps the event classification unchanged (empty fragments are not tokens)", () => {
    expect(classifyPayload(chunk([{index: 0, function: {arguments: ""}}])).kind).toBe("role");
    expect(classifyPayload(chunk([{index: 0, function: {arguments: "{"}}])).kind).toBe("tool_call");
  });
});

describe("the fake server's scripted tool calls", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer({
      port: 0,
      options: {
        ttftMs: 1,
        tokenIntervalMs: 0.2,
        toolAnswers: {
          weather: [
            {name: "get_weather", arguments: '{"city": "Paris", "unit": "celsius"}'},
            {name: "get_time", arguments: '{"timezone": "Europe/Berlin"}'}
          ]
        }
      }
    });
  });
  afterAll(() => server.close());

  it("streams every call's name and argument fragments with finish_reason tool_calls", async () => {
    const res = await streamRequest({
      url: `${server.url}/chat/completions`,
      headers: {"content-type": "application/json"},
      body: JSON.stringify({model: "m", stream: true, messages: [{role: "user", content: "the weather please"}]}),
      timeouts: {connectMs: 2000, headersMs: 2000, idleMs: 2000},
      origin: process.hrtime.bigint(),
      keepText: true
    });
    expect(res.finishReason).toBe("tool_calls");
    expect(res.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments])).toEqual([
      [0, "call_0", "get_weather", '{"city": "Paris", "unit": "celsius"}'],
      [1, "call_1", "get_time", '{"timezone": "Europe/Berlin"}']
    ]);
    expect(res.events.filter((e) => e[2] === "tool_call").length).toBeGreaterThan(4);
    expect(res.responseText).toBe("");
  });

  it("cuts the calls at max_tokens (finish_reason length)", async () => {
    const res = await streamRequest({
      url: `${server.url}/chat/completions`,
      headers: {"content-type": "application/json"},
      body: JSON.stringify({model: "m", stream: true, max_tokens: 3, messages: [{role: "user", content: "weather"}]}),
      timeouts: {connectMs: 2000, headersMs: 2000, idleMs: 2000},
      origin: process.hrtime.bigint(),
      keepText: true
    });
    expect(res.finishReason).toBe("length");
    expect(res.toolCalls).toEqual([{index: 0, id: "call_0", name: "get_weather", arguments: '{"city": "Paris"'}]);
  });
});
