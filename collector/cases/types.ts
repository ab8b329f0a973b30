import type {CaseId} from "../../src/analysis/schema/cases.ts";

/** An OpenAI chat message as sent (the runner appends assistant replies in multi-turn items). */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: {id: string; type: "function"; function: {name: string; arguments: string}}[];
  tool_call_id?: string;
}

/** An OpenAI `tools` entry. */
export interface ToolSpec {
  type: "function";
  function: {name: string; description: string; parameters: Record<string, unknown>};
}

/** What the scorer gets besides the response: its id, the expected answer and its parameters. */
export interface ScoreSpec {
  scorer: string;
  expected: unknown;
  params?: Record<string, unknown>;
}

/** One request of an item (a multi-turn item has several, sent in order with the history growing). */
export interface Turn {
  /** The new user message of this turn (earlier turns and replies are prepended by the runner). */
  user: string;
  /**
   * `user` cut into consecutive pieces (joined they are `user`): each is a prompt segment, so items that
   * share the leading part of a document (needle depths of one length) record exactly what they share.
   */
  pieces?: string[];
  /** Messages before the first turn's user message (system prompt). */
  system?: string;
  tools?: ToolSpec[];
  /** Ask for several tool calls in one turn. */
  parallelToolCalls?: boolean;
  maxTokens: number;
  /** Performance cases whose text is never scored ask for exactly max_tokens. */
  ignoreEos: boolean;
  /** The tier of this turn (multi-turn: the round). */
  tier: string | null;
  score: ScoreSpec;
  /** Intended prompt length in tokens, when the case sets one. */
  promptTokens?: number | null;
  /** Extra facts kept with the quality record (needle depth, measured tokens…). */
  details?: Record<string, unknown>;
}

export interface CaseItem {
  itemId: string;
  /** The tier the item belongs to (multi-turn: null, each turn has its own). */
  tier: string | null;
  /** Requests in flight while this item's group is sent (case_08's tiers); default 1. */
  concurrency: number;
  turns: Turn[];
}

export interface CasePlan {
  caseId: CaseId;
  items: CaseItem[];
  /** Times each item is sent. */
  repeats: number;
  /** Put a per-request (per-conversation) salt in front of the first user message: performance cases only. */
  salt: boolean;
}
