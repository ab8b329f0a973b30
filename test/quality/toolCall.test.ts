import {describe, expect, it} from "vitest";

import {checkCall, scoreToolCalls, validateSchema, type ToolDecl} from "../../src/analysis/quality/toolCall.ts";

const weather: ToolDecl = {
  name: "get_weather",
  parameters: {
    type: "object",
    properties: {city: {type: "string", minLength: 1}, unit: {type: "string", enum: ["celsius", "fahrenheit"]}},
    required: ["city", "unit"],
    additionalProperties: false
  }
};
const time: ToolDecl = {
  name: "get_time",
  parameters: {
    type: "object",
    properties: {timezone: {type: "string", pattern: "^[A-Za-z_]+/[A-Za-z_]+$"}},
    required: ["timezone"]
  }
};

describe("validateSchema", () => {
  it("checks types, enums, required and extra properties with JSON paths", () => {
    expect(validateSchema({city: "Paris", unit: "celsius"}, weather.parameters)).toEqual([]);
    expect(validateSchema({city: "Paris", unit: "kelvin", wind: 1}, weather.parameters)).toEqual([
      '$.unit: expected one of ["celsius","fahrenheit"], got "kelvin"',
      "$: unexpected property wind"
    ]);
    expect(validateSchema({unit: "celsius"}, weather.parameters)).toEqual(["$: missing required city"]);
    expect(validateSchema([], weather.parameters)).toEqual(["$: expected object, got array"]);
  });

  it("validates nested arrays, numbers and integer vs number", () => {
    const schema = {
      type: "object",
      properties: {
        xs: {type: "array", minItems: 1, items: {type: "integer", minimum: 0, maximum: 9}},
        r: {type: "number"}
      }
    };
    expect(validateSchema({xs: [1, 2], r: 3}, schema)).toEqual([]);
    expect(validateSchema({xs: [1.5, 12], r: "3"}, schema)).toEqual([
      "$.xs[0]: expected integer, got number",
      "$.xs[1]: 12 > maximum 9",
      "$.r: expected number, got string"
    ]);
    expect(validateSchema({xs: []}, schema)).toEqual(["$.xs: 0 items < minItems 1"]);
  });
});

describe("tool calls", () => {
  it("a call must name a declared tool and carry a JSON object", () => {
    expect(checkCall({name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}'}, [weather]).valid).toBe(
      true
    );
    expect(checkCall({name: "get_news", arguments: "{}"}, [weather]).errors).toEqual(['unknown tool "get_news"']);
    expect(checkCall({name: "get_weather", arguments: '{"city": "Par'}, [weather]).errors[0]).toMatch(
      /^arguments are not JSON/
    );
    expect(checkCall({name: "get_weather", arguments: "[1]"}, [weather]).errors).toEqual([
      "arguments are array, expected an object"
    ]);
  });

  it("counts valid and invalid calls and checks the count and the expected tools", () => {
    const tools = [weather, time];
    const good = scoreToolCalls(
      [
        {name: "get_weather", arguments: '{"city":"Tokyo","unit":"celsius"}'},
        {name: "get_time", arguments: '{"timezone":"Europe/Berlin"}'}
      ],
      tools,
      {names: ["get_weather", "get_time"], min: 2, max: 4}
    );
    expect([good.verdict, good.valid, good.invalid]).toEqual(["pass", 2, 0]);
    const bad = scoreToolCalls(
      [
        {name: "get_weather", arguments: '{"city":"Tokyo","unit":"celsius"}'},
        {name: "get_time", arguments: '{"timezone":"Berlin"}'}
      ],
      tools,
      {names: ["get_weather", "get_time"], min: 2, max: 4}
    );
    expect([bad.verdict, bad.valid, bad.invalid]).toEqual(["fail", 1, 1]);
    expect(bad.reason).toBe("invalid call get_time: $.timezone: does not match /^[A-Za-z_]+/[A-Za-z_]+$/");
    const none = scoreToolCalls([], tools, {names: ["get_weather"], min: 1, max: 1});
    expect([none.verdict, none.reason]).toEqual(["fail", "0 tool call(s), expected 1"]);
    const wrongTool = scoreToolCalls([{name: "get_time", arguments: '{"timezone":"Asia/Tokyo"}'}], tools, {
      names: ["get_weather"],
      min: 1,
      max: 1
    });
    expect(wrongTool.reason).toBe("expected tool(s) not called: get_weather");
  });
});
