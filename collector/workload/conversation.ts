import type {PromptSegments} from "../../src/analysis/schema/workload.ts";
import type {ChatMessage} from "../request/body.ts";
import {countWords} from "./dataset.ts";
import {chainSegments, type Part} from "./segments.ts";

/** A conversation as one completions prompt: "role: content" lines. */
export const asLines = (messages: readonly ChatMessage[]): string =>
  messages.map((m) => `${m.role}: ${m.content ?? ""}`).join("\n");

/**
 * One multi-turn conversation as chat clients keep it: every message in order, each also a prompt segment
 * (its role and text), so the next turn's prompt is the whole history and its segments extend this one's.
 * The one builder of the sessions workload and the case suite's multi-turn items.
 */
export class Conversation {
  readonly messages: ChatMessage[] = [];
  readonly salt: string | null;
  readonly #parts: Part[] = [];

  constructor(salt: string | null) {
    this.salt = salt;
  }

  /**
   * Adds a message of `tokens` tokens (as intended, or as the server counted an answer; else its words).
   * `pieces` (their concatenation is `content`) make one segment each, so prompts that share a leading
   * part of one long message (a document) share those segments; the tokens are shared out by length.
   */
  add(role: string, content: string, tokens: number | null = null, pieces?: readonly string[]): this {
    this.messages.push({role, content});
    const total = tokens ?? countWords(content);
    if (pieces === undefined || pieces.length < 2 || pieces.join("") !== content) {
      this.#parts.push({text: `${role}\n${content}`, tokens: total});
      return this;
    }
    let given = 0;
    pieces.forEach((piece, i) => {
      const upTo = Math.round((total * (given + piece.length)) / content.length);
      const before = Math.round((total * given) / content.length);
      given += piece.length;
      this.#parts.push({text: i === 0 ? `${role}\n${piece}` : piece, tokens: upTo - before});
    });
    return this;
  }

  /** The history as sent: the messages on chat, "role: content" lines on completions. */
  prompt(endpoint: string): string | ChatMessage[] {
    return endpoint === "chat" ? this.messages.slice() : asLines(this.messages);
  }

  /** Tokens of the history. */
  get tokens(): number {
    return this.#parts.reduce((n, p) => n + p.tokens, 0);
  }

  /** The history's segments (schema/workload.ts PromptSegments). */
  segments(exact: boolean): PromptSegments {
    return {segments: chainSegments(this.#parts), tokens: this.tokens, exact};
  }

  /** [chain hash, tokens] of the last message (an answer, as the next turn will send it). */
  last(): [string, number] {
    return chainSegments(this.#parts).at(-1)!;
  }
}
