import {expectedNumber, extractLenient, judgeAnswer, scoreGsm8k, type AnswerInput} from "./gsm8k.ts";
import {checkAll, ConstraintList} from "./instructions.ts";
import {scoreRetrieval} from "./needle.ts";
import {scoreToolCalls, type JsonSchema, type ToolCall, type ToolDecl} from "./toolCall.ts";

/**
 * One entry point for every scorer, used by the analyzer on a bundle's raw answers (answers.ts) and by
 * `inferscope score`. Deterministic, no LLM judge. A response that did not end normally (no response,
 * an error, cut by max_tokens) is a fail with its reason, never "not evaluated": accuracy is over all items.
 */
export const SCORERS = ["gsm8k", "numeric", "needle", "instructions", "tool_schema", "contains", "none"] as const;
export type ScorerId = (typeof SCORERS)[number];

export interface ScoreInput {
  scorer: string;
  /** Content text of the response; null when no response arrived. */
  response: string | null;
  /** Tool calls of the response (tool_schema). */
  toolCalls?: readonly ToolCall[] | null;
  expected: unknown;
  /** Scorer parameters: constraints (instructions), tools and expectation (tool_schema), reason (none). */
  params?: Record<string, unknown>;
  /** finish_reason of the stream; "length" means truncated. */
  finishReason?: string | null;
  /** Why the request did not complete normally, or null. */
  error?: string | null;
}

export interface Scored {
  /**
   * The record's scorer name: gsm8k yields gsm8k_strict, gsm8k_flexible (lm-eval's strict-match and
   * flexible-extract) and gsm8k_lenient; instructions yields instructions_strict and instructions_loose.
   */
  scorer: string;
  verdict: "pass" | "fail" | "not_evaluated";
  reason: string | null;
  extracted: unknown;
  details: Record<string, unknown>;
}

/** An item whose specification (expected answer, constraints, tools) is unusable. */
export class ScoreSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScoreSpecError";
  }
}

function answerInput(i: ScoreInput): AnswerInput {
  const expected = expectedNumber(i.expected);
  if (expected === null)
    throw new ScoreSpecError(`expected must be a number or a numeric string, got ${JSON.stringify(i.expected)}`);
  return {
    response: i.response,
    expected,
    reference: typeof i.expected === "string" ? i.expected : String(expected),
    truncated: i.finishReason === "length",
    error: i.error ?? null
  };
}

function toolSpec(params: Record<string, unknown> | undefined): {
  tools: ToolDecl[];
  names: string[];
  min: number;
  max: number;
} {
  const tools = params?.tools;
  if (!Array.isArray(tools) || tools.length === 0)
    throw new ScoreSpecError("tool_schema needs params.tools: a list of {name, parameters}");
  const decls: ToolDecl[] = tools.map((t, k) => {
    const o = t as {name?: unknown; parameters?: unknown; function?: {name?: unknown; parameters?: unknown}};
    const f = o.function ?? o;
    if (typeof f.name !== "string" || f.parameters === null || typeof f.parameters !== "object")
      throw new ScoreSpecError(`params.tools[${k}] needs a name and a parameters schema`);
    return {name: f.name, parameters: f.parameters as JsonSchema};
  });
  const names = Array.isArray(params?.names) ? (params.names as unknown[]).map(String) : [];
  const min = typeof params?.min === "number" ? params.min : 1;
  const max = typeof params?.max === "number" ? params.max : Math.max(min, names.length, 1);
  return {tools: decls, names, min, max};
}

// eslint-disable-next-line max-lines-per-function -- one case per scorer id, each a few lines mapping a scorer's verdicts to records
export function scoreItem(i: ScoreInput): Scored[] {
  const truncated = i.finishReason === "length";
  const error = i.error ?? null;
  switch (i.scorer as ScorerId) {
    case "gsm8k": {
      const v = scoreGsm8k(answerInput(i));
      return (["strict", "flexible", "lenient"] as const).map((mode) => ({
        scorer: `gsm8k_${mode}`,
        verdict: v[mode].verdict,
        reason: v[mode].reason,
        extracted: v[mode].extracted,
        details: {extractable: v[mode].extractable}
      }));
    }
    case "numeric": {
      const a = answerInput(i);
      const extracted = i.response === null ? null : extractLenient(i.response);
      const v = judgeAnswer(a, extracted, "no number in the response");
      return [{scorer: "numeric", verdict: v.verdict, reason: v.reason, extracted: v.extracted, details: {}}];
    }
    case "needle": {
      if (typeof i.expected !== "string" || i.expected.trim() === "")
        throw new ScoreSpecError(`needle needs the passphrase as expected, got ${JSON.stringify(i.expected)}`);
      const v = scoreRetrieval({response: i.response, needle: i.expected, truncated, error});
      return [{scorer: "needle", verdict: v.verdict, reason: v.reason, extracted: {found: v.found}, details: {}}];
    }
    case "contains": {
      if (typeof i.expected !== "string" || i.expected.trim() === "")
        throw new ScoreSpecError(`contains needs the expected phrase, got ${JSON.stringify(i.expected)}`);
      const v = scoreRetrieval({response: i.response, needle: i.expected, truncated, error});
      return [{scorer: "contains", verdict: v.verdict, reason: v.reason, extracted: {found: v.found}, details: {}}];
    }
    case "instructions": {
      const parsed = ConstraintList.safeParse(i.params?.constraints);
      if (!parsed.success) {
        const first = parsed.error.issues[0]!;
        throw new ScoreSpecError(
          `params.constraints${first.path.map((p) => `[${String(p)}]`).join("")}: ${first.message}`
        );
      }
      const bad = error !== null ? `no usable response: ${error}` : i.response === null ? "no response" : null;
      const results = i.response === null ? [] : checkAll(parsed.data, i.response);
      return (["strict", "loose"] as const).map((mode) => {
        const constraints = parsed.data.map((c, index) => {
          const r = results[index];
          const check = r === undefined ? {pass: false, reason: bad} : r[mode];
          const pass = bad === null && !truncated && check.pass;
          return {index, kind: c.kind, pass, reason: pass ? null : (bad ?? (check.pass ? "truncated" : check.reason))};
        });
        const failed = constraints.filter((c) => !c.pass);
        const reason =
          bad ??
          (truncated
            ? "truncated: the response hit max_tokens before it ended"
            : failed.length === 0
              ? null
              : `${failed.length}/${constraints.length} constraints failed: ${failed.map((c) => `${c.kind} (${c.reason})`).join("; ")}`);
        return {
          scorer: `instructions_${mode}`,
          verdict: failed.length === 0 && reason === null ? "pass" : "fail",
          reason,
          extracted: {passed: constraints.length - failed.length, of: constraints.length},
          details: {constraints}
        } satisfies Scored;
      });
    }
    case "tool_schema": {
      const spec = toolSpec(i.params);
      const calls = i.toolCalls ?? [];
      const v = scoreToolCalls(calls, spec.tools, {names: spec.names, min: spec.min, max: spec.max});
      const bad =
        error !== null
          ? `no usable response: ${error}`
          : truncated
            ? "truncated: the response hit max_tokens before it ended"
            : null;
      return [
        {
          scorer: "tool_schema",
          verdict: bad === null ? v.verdict : "fail",
          reason: bad ?? v.reason,
          extracted: calls.map((c) => ({name: c.name, arguments: c.arguments})),
          details: {valid: v.valid, invalid: v.invalid, calls: v.calls}
        }
      ];
    }
    case "none": {
      const why = typeof i.params?.reason === "string" ? i.params.reason : "this case has no assertion";
      return [
        {scorer: "none", verdict: "not_evaluated", reason: `not evaluated: ${why}`, extracted: null, details: {}}
      ];
    }
    default:
      throw new ScoreSpecError(`unknown scorer ${JSON.stringify(i.scorer)} (known: ${SCORERS.join(", ")})`);
  }
}
