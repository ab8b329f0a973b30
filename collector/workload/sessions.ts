import type {SessionsSource} from "../../src/analysis/schema/workload.ts";
import type {z} from "zod";

import {saltedPrompt, saltFor} from "../request/prompt.ts";
import {Conversation} from "./conversation.ts";
import {drawLength} from "./lengths.ts";
import {filler, promptText, requestRandom, seedOf, type BuildContext, type RequestAt, type Workload} from "./source.ts";

type Source = z.output<typeof SessionsSource>;

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
        conv = new Conversation(salt);
        open.set(key, conv);
      }
      const salt = first ? conv.salt : null;
      const tokens = drawLength(first ? s.first_tokens : s.turn_tokens, requestRandom(at, "user"));
      const lead = first ? [ctx.runSalt, salt].filter((x): x is string => x !== null) : [];
      const body = filler(ctx, Math.max(1, tokens - lead.length), seedOf(`${at.id}:user`)).text;
      const content = lead.reduceRight((t, word) => saltedPrompt(word, t), body);
      conv.add("user", content, tokens);
      const prompt = conv.prompt(ctx.config.target.endpoint);
      // the last turn's answer is never sent again: the conversation is done
      if (turn === s.turns) open.delete(key);
      const maxTokens =
        s.output_tokens === undefined ? w.max_tokens : drawLength(s.output_tokens, requestRandom(at, "output"));
      return {
        prompt,
        text: promptText(prompt),
        intendedTokens: conv.tokens,
        maxTokens,
        salt: conv.salt,
        tag: {kind: "sessions", session, turn},
        segments: conv.segments(ctx.exact),
        needsAnswer: turn < s.turns
      };
    },
    answered(at, responseText, outputTokens) {
      const session = Math.floor(at.index / s.turns);
      const turn = (at.index % s.turns) + 1;
      const key = keyOf(at, session);
      const conv = open.get(key);
      if (conv === undefined || turn === s.turns) return null;
      return conv.add("assistant", responseText, outputTokens).last();
    }
  };
}
