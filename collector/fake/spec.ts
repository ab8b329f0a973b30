import {mulberry32} from "../../src/analysis/stats/prng.ts";

/**
 * Speculative decoding as the fake server emulates it (option `specDecode`). Every decode step after the
 * first token drafts `k` tokens and verifies them: a prefix of the draft is accepted and the target adds
 * one token of its own, so a step yields accepted + 1 tokens. Acceptance is stratified and seeded: each
 * cycle of `cycle` drafts takes the levels u = (m + ½) / cycle, m = 0…cycle − 1, in a seeded order, and a
 * draft accepts position i while u < acceptRates[0…i] (a rejected position ends the prefix). Over a whole
 * cycle position i is accepted in exactly ⌈acceptRates[i]·cycle − ½⌉ drafts, so rates that are multiples of
 * 1/cycle come out exact (with non-increasing rates; otherwise position i's rate is min(rates[0…i])).
 */
export interface SpecEmulation {
  /** Whose metric names /metrics uses: vLLM and llama.cpp counters, or SGLang's accept-length gauges. */
  dialect: "vllm" | "sglang" | "llamacpp";
  /** Draft length: tokens proposed per step. */
  k: number;
  /** Share of drafts in which position i (0-based) is accepted; length k. */
  acceptRates: number[];
  /** Drafts per stratified cycle (default 20: rates in steps of 0.05 are exact over whole cycles). */
  cycle: number;
  /** Duration of one draft + verify step (replaces tokenIntervalMs). */
  stepMs: number;
  /** Added to ttftMs: the draft and verify work before the first token (speculation raises TTFT). */
  ttftExtraMs: number;
  /** One SSE event per step carrying its accepted run (vLLM, SGLang); false: one token per event (llama.cpp). */
  multiTokenEvents: boolean;
  /** Long-context collapse: from this many prompt tokens on, every step takes stepMs × collapseFactor. */
  collapseAtPromptTokens: number | null;
  collapseFactor: number;
}

export const DEFAULT_SPEC: Readonly<SpecEmulation> = Object.freeze({
  dialect: "vllm",
  k: 3,
  acceptRates: [0.8, 0.6, 0.4],
  cycle: 20,
  stepMs: 5,
  ttftExtraMs: 0,
  multiTokenEvents: true,
  collapseAtPromptTokens: null,
  collapseFactor: 50
}) as Readonly<SpecEmulation>;

/** The counters one response adds (vLLM's names: drafts, draft tokens, accepted tokens, accepted per position). */
export interface SpecCounts {
  dialect: SpecEmulation["dialect"];
  drafts: number;
  draftTokens: number;
  accepted: number;
  perPos: number[];
}

export interface SpecPlan {
  /** The emulation with its defaults filled in (llama.cpp's dialect streams one token per event). */
  emulation: SpecEmulation;
  /** Tokens each decode step yields (accepted + 1), in order; the first token (prefill) is not a step. */
  stepTokens: number[];
  counts: SpecCounts;
  /** Duration of each step (collapse applied). */
  stepMs: number;
}

/** FNV-1a of a string: the per-response seed offset (responses draw different orders, the same totals). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A seeded order of 0…n−1 (Fisher–Yates). */
function shuffled(n: number, rng: () => number): number[] {
  const a = Array.from({length: n}, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** The decode steps of one response of `outTokens` tokens under speculative decoding (partial options allowed). */
export function specPlan(
  partial: Partial<SpecEmulation>,
  outTokens: number,
  promptTokens: number,
  seed: number,
  requestId: string
): SpecPlan {
  const e: SpecEmulation = {
    ...DEFAULT_SPEC,
    ...partial,
    multiTokenEvents: partial.multiTokenEvents ?? partial.dialect !== "llamacpp"
  };
  const k = Math.max(1, Math.floor(e.k));
  const cycle = Math.max(1, Math.floor(e.cycle));
  const rng = mulberry32((seed ^ hash32(requestId)) >>> 0);
  const counts: SpecCounts = {
    dialect: e.dialect,
    drafts: 0,
    draftTokens: 0,
    accepted: 0,
    perPos: new Array<number>(k).fill(0)
  };
  const stepTokens: number[] = [];
  let order: number[] = [];
  for (let made = 1; made < outTokens;) {
    if (order.length === 0) order = shuffled(cycle, rng);
    const u = (order.pop()! + 0.5) / cycle;
    let a = 0;
    while (a < k && u < (e.acceptRates[a] ?? 0)) a++;
    counts.drafts++;
    counts.draftTokens += k;
    counts.accepted += a;
    for (let i = 0; i < a; i++) counts.perPos[i]!++;
    stepTokens.push(a + 1);
    made += a + 1;
  }
  const collapsed = e.collapseAtPromptTokens !== null && promptTokens >= e.collapseAtPromptTokens;
  return {emulation: e, stepTokens, counts, stepMs: e.stepMs * (collapsed ? e.collapseFactor : 1)};
}

/** Offsets (ms after the first token) at which each output token is ready: token 0 at 0, a step's tokens at its end. */
export function specTokenTimes(plan: SpecPlan, outTokens: number): number[] {
  const times = [0];
  plan.stepTokens.forEach((n, s) => {
    for (let i = 0; i < n && times.length < outTokens; i++) times.push((s + 1) * plan.stepMs);
  });
  return times;
}
