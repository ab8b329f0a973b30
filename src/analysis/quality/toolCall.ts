/**
 * Tool-call validation (case_02, case_04): each call the server returned is checked against the tool's
 * declared JSON Schema (the subset OpenAI function parameters use: type, enum, const, properties,
 * required, additionalProperties, items, minItems/maxItems, minimum/maximum, minLength/maxLength, pattern).
 */
import {appendAll} from "../util/append.ts";

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
}

export interface ToolDecl {
  name: string;
  parameters: JsonSchema;
}

export interface ToolCall {
  name: string;
  /** The arguments string exactly as streamed. */
  arguments: string;
}

const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;

const fits = (v: unknown, t: string): boolean => {
  const got = typeOf(v);
  return got === t || (t === "number" && got === "integer");
};

/** Validates `value` against `schema`; returns one message per violation, each with its JSON path. */
export function validateSchema(value: unknown, schema: JsonSchema, path = "$"): string[] {
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => fits(value, t))) {
      errors.push(`${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`);
      return errors;
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    errors.push(`${path}: expected one of ${JSON.stringify(schema.enum)}, got ${JSON.stringify(value)}`);
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value))
    errors.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push(`${path}: ${value} < minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push(`${path}: ${value} > maximum ${schema.maximum}`);
  }
  if (typeof value === "string") {
    const n = [...value].length;
    if (schema.minLength !== undefined && n < schema.minLength)
      errors.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && n > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value))
      errors.push(`${path}: does not match /${schema.pattern}/`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${path}: ${value.length} items < minItems ${schema.minItems}`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${path}: ${value.length} items > maxItems ${schema.maxItems}`);
    if (schema.items) value.forEach((v, i) => appendAll(errors, validateSchema(v, schema.items!, `${path}[${i}]`)));
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!Object.hasOwn(obj, k)) errors.push(`${path}: missing required ${k}`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k];
      if (sub) appendAll(errors, validateSchema(v, sub, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property ${k}`);
      else if (typeof schema.additionalProperties === "object")
        appendAll(errors, validateSchema(v, schema.additionalProperties, `${path}.${k}`));
    }
  }
  return errors;
}

export interface CallCheck {
  name: string;
  valid: boolean;
  errors: string[];
}

/** One returned call: a declared tool, arguments that parse as a JSON object and satisfy its schema. */
export function checkCall(call: ToolCall, tools: readonly ToolDecl[]): CallCheck {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return {name: call.name, valid: false, errors: [`unknown tool ${JSON.stringify(call.name)}`]};
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === "" ? "{}" : call.arguments) as unknown;
  } catch (e) {
    return {name: call.name, valid: false, errors: [`arguments are not JSON: ${(e as Error).message}`]};
  }
  if (typeOf(args) !== "object")
    return {name: call.name, valid: false, errors: [`arguments are ${typeOf(args)}, expected an object`]};
  const errors = validateSchema(args, tool.parameters);
  return {name: call.name, valid: errors.length === 0, errors};
}

export interface ToolExpectation {
  /** Every one of these tools must be called (validly) at least once. */
  names: string[];
  /** Number of calls allowed in the turn. */
  min: number;
  max: number;
}

export interface ToolVerdict {
  verdict: "pass" | "fail";
  reason: string | null;
  valid: number;
  invalid: number;
  calls: CallCheck[];
}

/** Scores the calls of one turn: the right count, every expected tool called validly, no invalid call. */
export function scoreToolCalls(
  calls: readonly ToolCall[],
  tools: readonly ToolDecl[],
  expect: ToolExpectation
): ToolVerdict {
  const checks = calls.map((c) => checkCall(c, tools));
  const valid = checks.filter((c) => c.valid).length;
  const invalid = checks.length - valid;
  const base = {valid, invalid, calls: checks};
  if (checks.length < expect.min || checks.length > expect.max) {
    const want = expect.min === expect.max ? `${expect.min}` : `${expect.min}–${expect.max}`;
    return {...base, verdict: "fail", reason: `${checks.length} tool call(s), expected ${want}`};
  }
  if (invalid > 0) {
    const first = checks.find((c) => !c.valid)!;
    return {...base, verdict: "fail", reason: `invalid call ${first.name}: ${first.errors[0]}`};
  }
  const missing = expect.names.filter((n) => !checks.some((c) => c.valid && c.name === n));
  if (missing.length > 0)
    return {...base, verdict: "fail", reason: `expected tool(s) not called: ${missing.join(", ")}`};
  return {...base, verdict: "pass", reason: null};
}
