import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {Phase} from "../../src/analysis/schema/records.ts";
import type {PromptSegments, WorkloadFacts, WorkloadTag} from "../../src/analysis/schema/workload.ts";
import {mulberry32} from "../../src/analysis/stats/prng.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {fillerWords} from "../request/prompt.ts";
import type {ChatMessage} from "../request/body.ts";
import {chainSegments, type Part} from "./segments.ts";

/** Which request of a run is being planned (deterministic in these, whatever the dispatch order). */
export interface RequestAt {
  point: string;
  repeat: number;
  phase: Exclude<Phase, "cooldown">;
  index: number;
  /** The request id (loadRequestId). */
  id: string;
  /** The load block's seed. */
  seed: number;
  /** Warmup requests of the point (a trace's measured requests start after them). */
  warmup: number;
}

/** One planned request of a workload: what is sent, and what the record keeps of how it was built. */
export interface RequestPlan {
  prompt: string | ChatMessage[];
  /** What the prompt digest is taken of (and kept with save_text): the string, or the messages as JSON. */
  text: string;
  intendedTokens: number | null;
  maxTokens: number;
  salt: string | null;
  tag?: WorkloadTag;
  segments?: PromptSegments;
  /** The answer's text is needed to build the next request (sessions). */
  needsAnswer?: boolean;
}

/** A workload: plans each request of the load points; sessions also learn each answer. */
export interface Workload {
  readonly facts: WorkloadFacts | null;
  request(at: RequestAt): RequestPlan;
  /** The answer of a request (its content text, and its output tokens as the server counted them, else null). */
  answered?(at: RequestAt, responseText: string, outputTokens: number | null): [string, number] | null;
  /** Trace replay: the planned send offsets (ns) of a phase of `count` requests (or of `durationS`), at `speed`. */
  offsets?(o: {
    phase: RequestAt["phase"];
    warmup: number;
    count: number | null;
    durationS: number | null;
    speed: number;
  }): Iterator<number>;
}

/** What every workload builder shares: the config, the run's salt, how filler words map to tokens. */
export interface BuildContext {
  config: RunConfig;
  bundleId: string;
  /** One word in front of every prompt of a prefix-sharing workload (null: salt off): shares within the run only. */
  runSalt: string | null;
  /** Filler words per token (from the prompt calibration; 1 without a tokenizer). */
  wordsPerToken: number;
  /** Whether a block of filler words is as many tokens on the server's tokenizer (checked, else false). */
  exact: boolean;
  /** Seed of the calibrated filler (the first load block's seed, as the prompt plan uses). */
  promptSeed: number;
}

/** A 32-bit seed from any text (for mulberry32). */
export const seedOf = (s: string): number => Number.parseInt(sha256Hex(s).slice(0, 8), 16);

/** A seeded uniform source for one request and purpose. */
export const requestRandom = (at: RequestAt, what: string): (() => number) =>
  mulberry32(seedOf(`${at.seed}:${at.point}:${at.repeat}:${at.phase}:${at.index}:${what}`));

/** Filler text of about `tokens` tokens (words scaled by the calibration), seeded. */
export function filler(ctx: BuildContext, tokens: number, seed: number): {text: string; words: number} {
  const words = Math.max(1, Math.round(tokens * ctx.wordsPerToken));
  return {text: fillerWords(words, seed), words};
}

/** The segments record of a prompt's parts. */
export const segmentsOf = (ctx: BuildContext, parts: readonly Part[]): PromptSegments => ({
  segments: chainSegments(parts),
  tokens: parts.reduce((n, p) => n + p.tokens, 0),
  exact: ctx.exact
});

/** A chat prompt of a system and a user message, or on completions the two joined by a space. */
export function twoPart(ctx: BuildContext, system: string, user: string): string | ChatMessage[] {
  if (ctx.config.target.endpoint !== "chat") return `${system} ${user}`;
  return [
    {role: "system", content: system},
    {role: "user", content: user}
  ];
}

/** The digest text of a prompt. */
export const promptText = (p: string | readonly ChatMessage[]): string =>
  typeof p === "string" ? p : JSON.stringify(p);
