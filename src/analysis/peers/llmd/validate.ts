import {Ajv2020, type ErrorObject, type ValidateFunction} from "ajv/dist/2020.js";

import {isObject} from "../shared/parse.ts";
import type {PeerError} from "../shared/types.ts";
import {UNIT_RULES} from "./units.ts";
import schema from "./vendor/br_v0_2_1_json_schema.json" with {type: "json"};

/**
 * Validates an llm-d Benchmark Report (v0.2 or v0.2.1) offline against upstream's published JSON Schema
 * with ajv (JSON Schema 2020-12), then checks the per-field units upstream's pydantic models enforce.
 * ajv options: `discriminator` and `ge` are pydantic's annotations (oneOf + const already enforce the
 * first; `ge` bounds are checked nowhere upstream's JSON Schema readers look), infinities are legal
 * (`concurrency: .inf`), and date-time formats are left to the reader (pydantic accepts times without offset).
 */
let compiled: ValidateFunction | null = null;
function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv2020({allErrors: true, strictNumbers: false, validateFormats: false});
  ajv.addKeyword("discriminator");
  ajv.addKeyword("ge");
  compiled = ajv.compile(schema);
  return compiled;
}

/** A JSON Pointer (`/results/request_performance`) as the JSON path the other importers print. */
export function pointerToPath(pointer: string): string {
  if (pointer === "") return "$";
  return (
    "$" +
    pointer
      .split("/")
      .slice(1)
      .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((seg) =>
        /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_][\w]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`
      )
      .join("")
  );
}

function describe(e: ErrorObject): {path: string; expected: string} {
  const path = pointerToPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  if (e.keyword === "required") return {path, expected: `the required key "${String(p.missingProperty)}"`};
  if (e.keyword === "additionalProperties")
    return {path, expected: `no key "${String(p.additionalProperty)}" (the schema does not define it)`};
  if (e.keyword === "enum")
    return {path, expected: `one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`};
  return {path, expected: e.message ?? e.keyword};
}

/** Schema and unit errors of a parsed report, located by JSON path; [] when valid. */
export function validateLlmdReport(file: string, value: unknown): PeerError[] {
  const validate = validator();
  const errors: PeerError[] = [];
  if (!validate(value)) {
    // oneOf/anyOf branches repeat one problem several times: keep the first per path and message
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      if (e.keyword === "oneOf" || e.keyword === "anyOf") continue;
      const d = describe(e);
      const key = `${d.path} ${d.expected}`;
      if (seen.has(key)) continue;
      seen.add(key);
      errors.push({file, path: d.path, expected: `${d.expected} (llm-d Benchmark Report v0.2.1 schema)`});
      if (errors.length >= 20) break;
    }
    return errors;
  }
  const agg = aggregateOf(value);
  for (const [rel, allowed] of Object.entries(UNIT_RULES)) {
    const [group, name] = rel.split(".") as [string, string];
    const g = agg?.[group];
    const stat = isObject(g) ? g[name] : undefined;
    if (!isObject(stat) || typeof stat.units !== "string") continue;
    if (!allowed.includes(stat.units))
      errors.push({
        file,
        path: `$.results.request_performance.aggregate.${rel}.units`,
        expected: `one of ${allowed.join(", ")} (upstream's unit rule for this field), got ${JSON.stringify(stat.units)}`
      });
  }
  return errors;
}

/** results.request_performance.aggregate, or null. */
export function aggregateOf(value: unknown): Record<string, unknown> | null {
  if (!isObject(value) || !isObject(value.results)) return null;
  const rp = value.results.request_performance;
  return isObject(rp) && isObject(rp.aggregate) ? rp.aggregate : null;
}
