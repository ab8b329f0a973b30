import type {ToolSpec} from "./types.ts";

/** The tools the tool-call cases declare; their parameters are the schemas each returned call is checked against. */
export const GET_WEATHER: ToolSpec = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: {
      type: "object",
      properties: {
        city: {type: "string", minLength: 1, description: "city name, e.g. Paris"},
        unit: {type: "string", enum: ["celsius", "fahrenheit"], description: "temperature unit"}
      },
      required: ["city", "unit"],
      additionalProperties: false
    }
  }
};

export const GET_TIME: ToolSpec = {
  type: "function",
  function: {
    name: "get_time",
    description: "Current local time in an IANA time zone.",
    parameters: {
      type: "object",
      properties: {
        timezone: {
          type: "string",
          pattern: "^[A-Za-z_]+/[A-Za-z_]+$",
          description: "IANA time zone, e.g. Europe/Berlin"
        }
      },
      required: ["timezone"],
      additionalProperties: false
    }
  }
};

/** The scorer parameters for a set of declared tools: {name, parameters} per tool plus the expectation. */
export function toolParams(tools: ToolSpec[], names: string[], min: number, max: number): Record<string, unknown> {
  return {tools: tools.map((t) => ({name: t.function.name, parameters: t.function.parameters})), names, min, max};
}
