import {z} from "zod";

import {REPORT_VERSION} from "../schema/versions.ts";
import {AnalyzeJson} from "./json.ts";
import {Report} from "./schema.ts";

const toJson = (schema: z.ZodType): Record<string, unknown> =>
  z.toJSONSchema(schema, {io: "output", unrepresentable: "any"}) as Record<string, unknown>;

/** JSON Schema (2020-12) of the Report `analyzeBundle` returns (the site's data), generated from report/schema.ts. */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...toJson(Report),
    $id: `https://inferscope.dev/schema/report.v${REPORT_VERSION}.schema.json`,
    title: `InferScope analysis report v${REPORT_VERSION}`,
    description:
      "The Report of analyzeBundle. Generated from src/analysis/report/schema.ts by `npm run schema`; do not edit. Compatibility: docs/report-schema.md."
  };
}

/** JSON Schema (2020-12) of `inferscope analyze --json`, for CI consumers. */
export function analyzeJsonSchema(): Record<string, unknown> {
  return {
    ...toJson(AnalyzeJson),
    $id: `https://inferscope.dev/schema/analyze.v${REPORT_VERSION}.schema.json`,
    title: `inferscope analyze --json v${REPORT_VERSION}`,
    description:
      "What `inferscope analyze BUNDLE --json` prints. Generated from src/analysis/report/json.ts by `npm run schema`; do not edit. Compatibility: docs/report-schema.md (keys may be added within a version; consumers ignore keys they do not know)."
  };
}
