import type {SharedPrefixSource} from "../../src/analysis/schema/workload.ts";
import type {z} from "zod";

import {saltedPrompt, saltFor} from "../request/prompt.ts";
import {drawLength} from "./lengths.ts";
import {
  filler,
  promptText,
  requestRandom,
  seedOf,
  segmentsOf,
  twoPart,
  type BuildContext,
  type Workload
} from "./source.ts";

type Source = z.output<typeof SharedPrefixSource>;

/**
 * G groups of requests, each group sharing a system prompt of P tokens (the run's salt in front, so a cache
 * shares within the run only), plus a unique user message (a per-request salt and seeded filler). A
 * request's group is its index modulo G (round_robin) or a seeded draw (random).
 */
export function sharedPrefixWorkload(ctx: BuildContext, s: Source): Workload {
  const w = ctx.config.workload;
  const prefixes = new Map<number, string>();
  const prefixOf = (g: number): string => {
    let p = prefixes.get(g);
    if (p === undefined) {
      p = saltedPrompt(
        ctx.runSalt,
        `g${g} ${filler(ctx, s.prefix_tokens - 1, seedOf(`${ctx.bundleId}:group:${g}`)).text}`
      );
      prefixes.set(g, p);
    }
    return p;
  };
  const prefixTokens = s.prefix_tokens + (ctx.runSalt === null ? 0 : 1);
  return {
    facts: {kind: "shared_prefix", file: null, exact: ctx.exact, note: null},
    request(at) {
      const group =
        s.assign === "round_robin" ? at.index % s.groups : Math.floor(requestRandom(at, "group")() * s.groups);
      const salt = w.salt ? saltFor(ctx.bundleId, at.id) : null;
      const suffixTokens = drawLength(s.suffix_tokens, requestRandom(at, "suffix"));
      const body = filler(ctx, Math.max(1, suffixTokens - (salt === null ? 0 : 1)), seedOf(`${at.id}:suffix`)).text;
      const user = saltedPrompt(salt, body);
      const system = prefixOf(group);
      const prompt = twoPart(ctx, system, user);
      const maxTokens =
        s.output_tokens === undefined ? w.max_tokens : drawLength(s.output_tokens, requestRandom(at, "output"));
      return {
        prompt,
        text: promptText(prompt),
        intendedTokens: prefixTokens + suffixTokens,
        maxTokens,
        salt,
        tag: {kind: "shared_prefix", group},
        segments: segmentsOf(ctx, [
          {text: system, tokens: prefixTokens},
          {text: user, tokens: suffixTokens}
        ])
      };
    }
  };
}
