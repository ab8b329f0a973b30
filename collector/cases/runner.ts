import {Conversation} from "../workload/conversation.ts";
import {isOpenLoop, type RunConfig, type SuiteOptions} from "../../src/analysis/schema/config.ts";
import type {CaseAnswer, RequestRecord} from "../../src/analysis/schema/records.ts";
import type {Effects} from "../effects.ts";
import type {Redactor} from "../redact.ts";
import type {RunControl} from "../load/control.ts";
import {runClosedLoop, runOpenLoop, type PhaseContext} from "../load/dispatch.ts";
import type {PlannedPoint} from "../load/plan.ts";
import type {Progress} from "../load/progress.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {saltedPrompt, saltFor} from "../request/prompt.ts";
import type {Pacer} from "../load/pacer.ts";
import {caseRequestId} from "../request/id.ts";
import {toRecord} from "../request/record.ts";
import type {RequestTarget} from "../request/send.ts";
import {sendRequest} from "../request/sendRequest.ts";
import type {StreamResult} from "../request/types.ts";
import {arrivalOffsetsNs} from "../load/schedule.ts";
import type {CaseItem, CasePlan, ChatMessage, Turn} from "./types.ts";

/**
 * Runs case plans against the target and writes, for every request, a request record (with caseId and
 * tier) and the raw answer (CaseAnswer: the response, tool calls, finish reason, error and what the
 * case's scorer needs). No verdict: the analyzer scores the answers (src/analysis/quality/answers.ts).
 */

interface Appender<T> {
  append(record: T): unknown;
}

export interface CaseRunContext {
  config: RunConfig;
  options: SuiteOptions;
  fx: Pick<Effects, "clock">;
  /** The run's request builder (transport, pool, headers, timeouts). */
  target: RequestTarget;
  origin: bigint;
  rel: (t?: bigint) => number;
  redact: Redactor;
  redactRecord: (r: Omit<RequestRecord, "seq">) => Omit<RequestRecord, "seq">;
  control: RunControl;
  requests: Appender<Omit<RequestRecord, "seq">>;
  answers: Appender<Omit<CaseAnswer, "seq">>;
  note: (event: string, detail: Record<string, unknown>) => void;
  progress: Progress;
  pacer: Pacer;
  runId: string;
  bundleId: string;
  apiKey: string | null;
  continuousUsage: boolean;
}

/**
 * The `point` of a case request sent by the suite itself: `suite-c<N>` (N requests in flight). It never
 * collides with a load point id (those start with their mode), so idle and under-load requests stay apart.
 */
export const suiteDispatch = (concurrency: number): string => `suite-c${concurrency}`;

/** Idle: items sent one at a time (case_08: at its tier's concurrency). Load: at a load point's concurrency or rate. */

export type Condition = {kind: "idle"} | {kind: "load"; point: PlannedPoint};

const EXCERPT = 300;
const excerpt = (s: string | null): string =>
  s === null ? "" : `: ${s.length > EXCERPT ? `${s.slice(0, EXCERPT)}…` : s}`;

/** Why a response cannot count as a complete answer (the analyzer's scorers fail such items), or null. */
export function responseProblem(res: StreamResult): string | null {
  if (res.transportError !== null) return `transport error ${res.transportError}${excerpt(res.errorMessage)}`;
  if (res.httpStatus === null || res.httpStatus < 200 || res.httpStatus >= 300)
    return `http ${res.httpStatus ?? "none"}${excerpt(res.errorMessage)}`;
  if (res.events.some((e) => e[2] === "error")) return `in-band error event${excerpt(res.errorMessage)}`;
  if (res.events.some((e) => e[2] === "parse_error")) return "malformed stream event";
  if (res.events.length === 0) return `no stream events${excerpt(res.errorMessage)}`;
  if (res.finishReason === null && !res.events.some((e) => e[2] === "done"))
    return "the stream ended without finish_reason or [DONE]";
  return null;
}

/** The turn's max_tokens under suite_options.max_tokens_cap. */
const maxTokensOf = (c: CaseRunContext, turn: Turn): number =>
  c.options.max_tokens_cap === undefined ? turn.maxTokens : Math.min(turn.maxTokens, c.options.max_tokens_cap);

interface Unit {
  item: CaseItem;
  repeat: number;
}

/** Consecutive items with the same tier and concurrency form one dispatch group. */
function groups(items: readonly CaseItem[]): CaseItem[][] {
  const out: CaseItem[][] = [];
  for (const it of items) {
    const last = out.at(-1)?.[0];
    if (last && last.tier === it.tier && last.concurrency === it.concurrency) out.at(-1)!.push(it);
    else out.push([it]);
  }
  return out;
}

export async function runCasePlans(c: CaseRunContext, plans: readonly CasePlan[], cond: Condition): Promise<void> {
  for (const plan of plans) {
    if (c.control.stopped) return;
    const label = cond.kind === "idle" ? "idle" : `under load at ${cond.point.point.id}`;
    c.note("case_start", {caseId: plan.caseId, items: plan.items.length, repeats: plan.repeats, condition: label});
    const batches = cond.kind === "idle" ? groups(plan.items) : [plan.items];
    for (const batch of batches) {
      if (c.control.stopped) break;
      await runBatch(c, plan, batch, cond);
    }
    c.note("case_end", {caseId: plan.caseId, condition: label});
  }
}

async function runBatch(c: CaseRunContext, plan: CasePlan, batch: CaseItem[], cond: Condition): Promise<void> {
  const units: Unit[] = [];
  for (let repeat = 0; repeat < plan.repeats; repeat++) for (const item of batch) units.push({item, repeat});
  const concurrency = batch[0]!.concurrency;
  const pointLabel = cond.kind === "load" ? cond.point.point.id : suiteDispatch(concurrency);
  const tier = batch[0]!.tier;
  const requests = units.reduce((a, u) => a + u.item.turns.length, 0);
  c.progress.start(`${plan.caseId}${tier === null ? "" : ` ${tier}`} (${pointLabel})`, requests, null);
  const ctx: PhaseContext = {
    control: c.control,
    clock: c.fx.clock,
    origin: c.origin,
    send: (index, tSchedNs) => sendUnit(c, plan, units[index]!, index, tSchedNs, pointLabel, cond)
  };
  if (cond.kind === "load" && isOpenLoop(cond.point.point.mode)) {
    const p = cond.point;
    const offsetsNs = arrivalOffsetsNs({
      mode: p.point.mode as "rate" | "poisson" | "gamma",
      rate: p.point.value,
      burstiness: p.block.burstiness,
      seed: p.block.seed,
      count: units.length
    });
    await runOpenLoop(ctx, {offsetsNs, maxConcurrency: p.point.maxConcurrency, pacer: c.pacer});
  } else {
    const n = cond.kind === "load" ? cond.point.point.value : concurrency;
    await runClosedLoop(ctx, {concurrency: n, count: units.length, durationNs: null});
  }
  c.progress.end();
}

/** Sends every turn of one item (a conversation grows with each reply); resolves with the last end time. */
async function sendUnit(
  c: CaseRunContext,
  plan: CasePlan,
  unit: Unit,
  index: number,
  tSchedNs: number,
  pointLabel: string,
  cond: Condition
): Promise<number> {
  const {item, repeat} = unit;
  const underLoad = cond.kind === "load" ? pointLabel : null;
  const ids = {runId: c.runId, caseId: plan.caseId, itemId: item.itemId, repeat, underLoad};
  const salt = plan.salt ? saltFor(c.bundleId, caseRequestId(ids)) : null;
  // the one conversation builder of the sessions workload: the history, and its segments per turn
  const conv = new Conversation(salt);
  const multi = item.turns.length > 1;
  let tSched = tSchedNs;
  let end = tSchedNs;
  for (const [t, turn] of item.turns.entries()) {
    if (c.control.stopped) break;
    if (t === 0 && turn.system) conv.add("system", turn.system);
    const pieces =
      t === 0 && turn.pieces !== undefined
        ? [saltedPrompt(salt, turn.pieces[0]!), ...turn.pieces.slice(1)]
        : turn.pieces;
    conv.add(
      "user",
      t === 0 ? saltedPrompt(salt, turn.user) : turn.user,
      t === 0 ? (turn.promptTokens ?? null) : null,
      pieces
    );
    const history = conv.messages.slice() as ChatMessage[]; // only system, user and assistant are added
    const id = caseRequestId(ids, {index: t, of: item.turns.length});
    const res = await send(c, id, history, turn);
    const promptJson = JSON.stringify(history);
    const promptDigest = sha256Hex(promptJson);
    const rec = toRecord(
      {
        id,
        point: pointLabel,
        repeat,
        index,
        phase: "measure",
        tSchedNs: tSched,
        promptDigest,
        promptTokensIntended: turn.promptTokens ?? null,
        maxTokens: maxTokensOf(c, turn),
        salt,
        promptText: promptJson,
        // every turn records its segments: the analyzer bounds the prefix-cache hits of each case and tier
        promptSegments: conv.segments(false),
        ...(multi ? {workload: {kind: "sessions" as const, turn: t + 1}} : {})
      },
      res,
      c.config.workload.save_text
    );
    rec.caseId = plan.caseId;
    if (turn.tier !== null) rec.tier = turn.tier;
    c.requests.append(c.redactRecord(rec));
    const problem = responseProblem(res);
    c.progress.tick(problem === null);
    c.answers.append(
      answerOf(c, plan, item, turn, {round: t, repeat, requestId: id, promptDigest}, res, problem, cond)
    );
    end = res.tEndNs ?? c.rel();
    tSched = end;
    conv.add("assistant", res.responseText, res.usage?.completionTokens ?? null);
  }
  return end;
}

function send(c: CaseRunContext, id: string, messages: ChatMessage[], turn: Turn): Promise<StreamResult> {
  const extra: Record<string, unknown> = {};
  if (turn.tools) {
    extra.tools = turn.tools;
    extra.tool_choice = "auto";
    if (turn.parallelToolCalls) extra.parallel_tool_calls = true;
  }
  const spec = {
    id,
    endpoint: "chat" as const,
    prompt: messages,
    maxTokens: maxTokensOf(c, turn),
    ignoreEos: turn.ignoreEos === true,
    continuousUsage: c.continuousUsage,
    keepText: true,
    extra
  };
  return sendRequest(c.target, c.config, spec, c.control);
}

/** The raw answer of one turn: what the server answered (redacted) and what the case's scorer needs. */
function answerOf(
  c: CaseRunContext,
  plan: CasePlan,
  item: CaseItem,
  turn: Turn,
  at: {round: number; repeat: number; requestId: string; promptDigest: string},
  res: StreamResult,
  problem: string | null,
  cond: Condition
): Omit<CaseAnswer, "seq"> {
  const answered = res.httpStatus !== null && res.httpStatus >= 200 && res.httpStatus < 300;
  return {
    caseId: plan.caseId,
    itemId: item.itemId,
    requestId: at.requestId,
    point: cond.kind === "load" ? cond.point.point.id : null,
    tier: turn.tier,
    repeat: at.repeat,
    round: item.turns.length > 1 ? at.round + 1 : null,
    promptDigest: at.promptDigest,
    scorer: turn.score.scorer,
    expected: turn.score.expected,
    ...(turn.score.params === undefined ? {} : {params: turn.score.params}),
    response: answered ? c.redact(res.responseText) : null,
    toolCalls: (res.toolCalls ?? []).map((k) => ({name: k.name, arguments: c.redact(k.arguments)})),
    finishReason: res.finishReason,
    error: problem === null ? null : c.redact(problem),
    details: {...turn.details}
  };
}
