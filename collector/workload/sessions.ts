import type {SessionsSource} from "../../src/analysis/schema/workload.ts";
import type {z} from "zod";

import type {ChatMessage} from "../request/body.ts";
import {saltFor} from "../request/prompt.ts";
import {drawLength} from "./lengths.ts";
import {chainSegments, type Part} from "./segments.ts";
import {
  filler,
  promptText,
  requestRandom,
  seedOf,
  segmentsOf,
  withWord,
  type BuildContext,
  type RequestAt,
  type Workload
} from "./source.ts";

type Source = z.output<typeof SessionsSource>;

interface Conversation {
  messages: ChatMessage[];
  parts: Part[];
  salt: string | null;
}

const countWords = (s: string): number => {
  const t = s.trim();
  return t === "" ? 0 : t.split(/\s+/).length;
};

/**
 * Multi-turn conversations: request i of a phase is turn (i mod K) + 1 of conversation ⌊i / K⌋, and each
 * turn sends the whole history — every earlier user message and the server's answers — as chat clients do.
 * The dispatcher (load/sessions.ts) sends a conversation's turns in order on one user, so a turn is planned
 * only after the previous one was answered. The first message opens with the run's salt and the
 * conversation's own salt: conversations share nothing with each other, each turn shares its history with
 * the next. On completions the history is joined as "role: content" lines.
 */
export function sessionsWorkload(ctx: BuildContext, s: Source): Workload {
  const w = ctx.config.workload;
  const open = new Map<string, Conversation>();
  const keyOf = (at: RequestAt, session: number) => `${at.point}|${at.repeat}|${at.phase}|${session}`;
  return {
    facts: {kind: "sessions", file: null, exact: ctx.exact, note: null},
    request(at) {
      const session = Math.floor(at.index / s.turns);
      const turn = (at.index % s.turns) + 1;
      const key = keyOf(at, session);
      const first = turn === 1;
      let conv = open.get(key);
      if (conv === undefined || first) {
        const salt = w.salt ? saltFor(ctx.bundleId, `${at.point}-r${at.repeat}-${at.phase}-s${session}`) : null;
        conv = {messages: [], parts: [], salt};
        open.set(key, conv);
      }
      const salt = first ? conv.salt : null;
      const tokens = drawLength(first ? s.first_tokens : s.turn_tokens, requestRandom(at, "user"));
      const lead = first ? [ctx.runSalt, salt].filter((x): x is string => x !== null) : [];
      const body = filler(ctx, Math.max(1, tokens - lead.length), seedOf(`${at.id}:user`)).text;
      const content = lead.reduceRight((t, word) => withWord(word, t), body);
      conv.messages.push({role: "user", content});
      conv.parts.push({text: `user\n${content}`, tokens});
      const history = conv.messages.slice();
      const prompt =
        ctx.config.target.endpoint === "chat"
          ? history
          : history.map((m) => `${m.role}: ${m.content ?? ""}`).join("\n");
      const maxTokens =
        s.output_tokens === undefined ? w.max_tokens : drawLength(s.output_tokens, requestRandom(at, "output"));
      const intended = conv.parts.reduce((n, p) => n + p.tokens, 0);
      return {
        prompt,
        text: promptText(prompt),
        intendedTokens: intended,
        maxTokens,
        salt: conv.salt,
        tag: {kind: "sessions", session, turn},
        segments: segmentsOf(ctx, conv.parts),
        needsAnswer: turn < s.turns
      };
    },
    answered(at, responseText, outputTokens) {
      const session = Math.floor(at.index / s.turns);
      const turn = (at.index % s.turns) + 1;
      const key = keyOf(at, session);
      const conv = open.get(key);
      if (conv === undefined) return null;
      if (turn === s.turns) {
        open.delete(key);
        return null;
      }
      conv.messages.push({role: "assistant", content: responseText});
      conv.parts.push({text: `assistant\n${responseText}`, tokens: outputTokens ?? countWords(responseText)});
      return chainSegments(conv.parts).at(-1)!;
    }
  };
}
