import {readFileSync} from "node:fs";

import type {Command} from "commander";
import {z} from "zod";

import {
  ConstraintList,
  LM_EVAL_COMMIT,
  qualitySummary,
  QUALITY_VERSION,
  scoreItem,
  ScoreSpecError,
  type Gsm8kReadingTotals,
  type QualityRecord,
  type Rate
} from "../../src/analysis/index.ts";
import {LineSplitter, type Oversized} from "../../src/analysis/util/lines.ts";
import {zodIssueList} from "../../src/analysis/util/zodIssues.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultIo, type Io} from "./io.ts";

/**
 * `inferscope score SCORER --input FILE.jsonl [--json]`: re-scores saved responses offline with the same
 * scorers the case suite uses, so responses from any tool can be scored, and old ones re-scored after a
 * scorer change. One JSON object per line: {id, response, expected} plus the scorer's own fields.
 */
export const OFFLINE_SCORERS = ["gsm8k", "needle", "instructions"] as const;
type OfflineScorer = (typeof OFFLINE_SCORERS)[number];

const Common = {
  id: z.union([z.string().min(1), z.number()]).describe("item id"),
  response: z.string().nullable().describe("the model's response text (null: no response)"),
  finish_reason: z.string().nullable().optional().describe('"length" marks a truncated response'),
  truncated: z.boolean().optional(),
  error: z.string().nullable().optional().describe("why the request failed, if it did")
};

const LINE_SCHEMAS: Record<OfflineScorer, {schema: z.ZodType; expects: string}> = {
  gsm8k: {
    schema: z.looseObject({...Common, expected: z.union([z.number(), z.string().min(1)])}),
    expects: '{"id", "response", "expected": number or "#### N" solution}'
  },
  needle: {
    schema: z.looseObject({
      ...Common,
      expected: z.string().min(1).optional(),
      needle: z.string().min(1).optional(),
      depth: z.number().min(0).max(1).optional(),
      length: z.union([z.number(), z.string()]).optional()
    }),
    expects: '{"id", "response", "needle" (or "expected"): the passphrase, optional "depth" 0..1 and "length"}'
  },
  instructions: {
    schema: z.looseObject({...Common, constraints: ConstraintList, expected: z.unknown().optional()}),
    expects: '{"id", "response", "constraints": [{"kind": …}, …]}'
  }
};

interface Line {
  id: string;
  response: string | null;
  finish_reason?: string | null;
  truncated?: boolean;
  error?: string | null;
  expected?: unknown;
  needle?: string;
  depth?: number;
  length?: number | string;
  constraints?: unknown[];
}

/** The input's lines, numbered from 1 (split as bundle JSONL is: LF, a CR before it stripped, bounded length). */
function numberedLines(text: string): {line: number; text: string | Oversized}[] {
  const splitter = new LineSplitter();
  const lines = splitter.push(text);
  const {last} = splitter.finish();
  if (last !== null) lines.push(last);
  return lines.map((t, i) => ({line: i + 1, text: t}));
}

/** One input line as a Line, or the problem with it. */
function parseLine(raw: string | Oversized, where: string, scorer: OfflineScorer): Line | string {
  const {schema, expects} = LINE_SCHEMAS[scorer];
  if (typeof raw !== "string") return `${where}: line of ${raw.oversized} characters is too long; expected ${expects}`;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return `${where}: not JSON (${(e as Error).message}); expected ${expects}`;
  }
  const p = schema.safeParse(v);
  if (!p.success) {
    const first = zodIssueList(p.error)[0]!;
    return `${where}: ${first.path === "" ? "(line)" : first.path}: ${first.message}; expected ${expects}`;
  }
  const line = p.data as Line & {id: string | number};
  if (scorer === "needle" && line.needle === undefined && typeof line.expected !== "string")
    return `${where}: needle: missing; expected ${expects}`;
  return {...line, id: String(line.id)};
}

/** Parses the input; every bad line is reported as file:line with what was expected. */
export function readLines(text: string, file: string, scorer: OfflineScorer): Line[] {
  const out: Line[] = [];
  const problems: string[] = [];
  for (const {line, text: raw} of numberedLines(text)) {
    if (typeof raw === "string" && raw.trim() === "") continue;
    const parsed = parseLine(raw, `${file}:${line}`, scorer);
    if (typeof parsed === "string") problems.push(parsed);
    else out.push(parsed);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : "";
    throw new CliError(`invalid input:\n${shown.join("\n")}${more}`, {exitCode: EXIT.usage});
  }
  if (out.length === 0) throw new CliError(`${file}: no items to score`, {exitCode: EXIT.usage});
  return out;
}

const CASE_OF: Record<OfflineScorer, string> = {
  gsm8k: "gsm8k",
  needle: "case_10_needle",
  instructions: "case_11_instruction"
};

/** Scores every line into quality records (the same shape the case suite writes into bundles). */
export function scoreLines(scorer: OfflineScorer, lines: readonly Line[], file: string): QualityRecord[] {
  const records: QualityRecord[] = [];
  lines.forEach((l, i) => {
    const expected = scorer === "needle" ? (l.needle ?? l.expected) : l.expected;
    let scored;
    try {
      scored = scoreItem({
        scorer,
        response: l.response,
        expected,
        params: scorer === "instructions" ? {constraints: l.constraints} : {},
        finishReason: l.truncated ? "length" : (l.finish_reason ?? null),
        error: l.error ?? null
      });
    } catch (e) {
      if (e instanceof ScoreSpecError)
        throw new CliError(`${file}: item ${l.id}: ${e.message}`, {exitCode: EXIT.usage});
      throw e;
    }
    for (const s of scored)
      records.push({
        seq: records.length,
        qualityVersion: QUALITY_VERSION,
        caseId: CASE_OF[scorer],
        scorer: s.scorer,
        itemId: l.id,
        requestId: null,
        point: null,
        tier: scorer === "needle" && l.length !== undefined ? String(l.length) : null,
        promptDigest: null,
        response: l.response,
        extracted: s.extracted,
        expected: expected ?? null,
        verdict: s.verdict,
        reason: s.reason,
        details: {...s.details, line: i + 1, ...(l.depth === undefined ? {} : {depth: l.depth})}
      });
  });
  return records;
}

const pct = (r: number | null): string => (r === null ? "—" : `${(r * 100).toFixed(1)} %`);
const rateText = (r: Rate): string => `${r.pass}/${r.n} = ${pct(r.rate)}`;

/** The totals printed (and, with --json, the `totals` object). */
export function totalsOf(scorer: OfflineScorer, records: QualityRecord[]): Record<string, unknown> {
  const c = qualitySummary(records).groups[0]!.cases[0]!;
  if (scorer === "gsm8k") {
    const g = c.gsm8k[0]!;
    return {n: g.n, strict: g.strict, flexible: g.flexible, lenient: g.lenient};
  }
  if (scorer === "needle") {
    const t = c.needle[0];
    const overall = c.scorers[0]!.rate;
    return {
      n: overall.n,
      retrieved: overall.pass,
      rate: overall.rate,
      ...(t
        ? {
            by_depth: t.byDepth.map((d) => ({depth: d.depth, n: d.rate.n, retrieved: d.rate.pass, rate: d.rate.rate})),
            cells: t.cells.map((x) => ({
              length: x.length,
              depth: x.depth,
              n: x.rate.n,
              retrieved: x.rate.pass,
              rate: x.rate.rate
            }))
          }
        : {})
    };
  }
  const mode = (m: "strict" | "loose") => {
    const r = c.scorers.find((s) => s.scorer === `instructions_${m}`)!.rate;
    return {
      prompts: {n: r.n, passed: r.pass, rate: r.rate},
      constraints: c.constraints.map((k) => ({kind: k.kind, n: k[m].n, passed: k[m].pass, rate: k[m].rate}))
    };
  };
  return {n: c.prompts.length, strict: mode("strict"), loose: mode("loose")};
}

function humanLines(scorer: OfflineScorer, records: QualityRecord[]): string[] {
  const out: string[] = [];
  const byItem = new Map<string, QualityRecord[]>();
  for (const r of records) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r]);
  for (const [id, rs] of byItem) {
    const verdicts = rs.map((r) => `${r.scorer.replace(/^(gsm8k|instructions)_/, "")}=${r.verdict}`).join(" ");
    const reasons = [...new Set(rs.map((r) => r.reason).filter((x): x is string => x !== null))];
    out.push(`${id}\t${verdicts}${reasons.length ? `\t${reasons.join(" | ")}` : ""}`);
  }
  const c = qualitySummary(records).groups[0]!.cases[0]!;
  out.push("");
  if (scorer === "gsm8k") {
    const g = c.gsm8k[0]!;
    out.push(`n = ${g.n} (accuracy over every item; truncated, failed and unextractable answers count as wrong)`);
    const reading = (label: string, r: Gsm8kReadingTotals | null) =>
      `${`${label}:`.padEnd(40)}${r === null ? "—" : `${r.correct}/${g.n} = ${pct(r.accuracy)}, coverage ${pct(r.coverage)}`}`;
    out.push(reading("strict (lm-eval strict-match)", g.strict));
    out.push(reading("flexible (lm-eval flexible-extract)", g.flexible));
    out.push(reading("lenient (####, \\boxed{}, last number)", g.lenient));
    out.push(`lm-eval = lm-evaluation-harness gsm8k filters and exact_match, read at ${LM_EVAL_COMMIT.slice(0, 12)}`);
    out.push("coverage = share of items with a complete response from which that reading extracted an answer");
  } else if (scorer === "needle") {
    out.push(`retrieval: ${rateText(c.scorers[0]!.rate)}`);
    for (const d of c.needle[0]?.byDepth ?? []) out.push(`  depth ${d.depth}: ${rateText(d.rate)}`);
    for (const l of c.needle[0]?.byLength ?? []) out.push(`  length ${l.tier}: ${rateText(l.rate)}`);
  } else {
    for (const m of ["strict", "loose"] as const)
      out.push(`${m}: prompts ${rateText(c.scorers.find((s) => s.scorer === `instructions_${m}`)!.rate)}`);
    for (const k of c.constraints) out.push(`  ${k.kind}: strict ${rateText(k.strict)}, loose ${rateText(k.loose)}`);
  }
  return out;
}

export function scoreCommand(scorer: string, o: {input?: string; json?: boolean}, io: Io): void {
  if (!(OFFLINE_SCORERS as readonly string[]).includes(scorer))
    throw new CliError(`unknown scorer ${JSON.stringify(scorer)}: use ${OFFLINE_SCORERS.join(", ")}`, {
      exitCode: EXIT.usage
    });
  const s = scorer as OfflineScorer;
  if (o.input === undefined) throw new CliError("score needs --input FILE.jsonl", {exitCode: EXIT.usage});
  let text: string;
  try {
    text = readFileSync(o.input, "utf8");
  } catch (e) {
    throw new CliError(`cannot read ${o.input}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  const records = scoreLines(s, readLines(text, o.input, s), o.input);
  const totals = totalsOf(s, records);
  if (o.json) {
    const items = records.map((r) => ({
      id: r.itemId,
      scorer: r.scorer,
      verdict: r.verdict,
      extracted: r.extracted,
      expected: r.expected,
      reason: r.reason,
      details: r.details
    }));
    const lmEval = s === "gsm8k" ? {lm_eval_commit: LM_EVAL_COMMIT} : {};
    io.out(JSON.stringify({scorer: s, quality_version: QUALITY_VERSION, ...lmEval, items, totals}, null, 2));
  } else for (const line of humanLines(s, records)) io.out(line);
}

export function register(program: Command): void {
  program
    .command("score")
    .description("re-score saved responses offline (gsm8k, needle, instructions)")
    .argument("<scorer>", OFFLINE_SCORERS.join(" | "))
    .option("--input <file>", "JSONL, one {id, response, expected, …} per line")
    .option("--json", "per-item verdicts and totals as JSON")
    .action((scorer: string, o: {input?: string; json?: boolean}) => scoreCommand(scorer, o, defaultIo()));
}
