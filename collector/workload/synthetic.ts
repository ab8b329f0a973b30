import {saltedPrompt, saltFor, type PromptPlan} from "../request/prompt.ts";
import {drawLength} from "./lengths.ts";
import {filler, requestRandom, type BuildContext, type Workload} from "./source.ts";

/**
 * The default workload: one calibrated filler prompt behind a per-request salt, max_tokens fixed — or, with
 * `workload.input_tokens` / `output_tokens`, lengths drawn per request (seeded) from those distributions
 * (the filler is the same seeded word sequence, cut to each length).
 */
export function syntheticWorkload(ctx: BuildContext, prompt: PromptPlan): Workload {
  const w = ctx.config.workload;
  return {
    facts: null,
    request(at) {
      const salt = w.salt ? saltFor(ctx.bundleId, at.id) : null;
      let body = prompt.body;
      let intended = prompt.intendedTokens;
      if (w.input_tokens !== undefined) {
        intended = drawLength(w.input_tokens, requestRandom(at, "input"));
        body = filler(ctx, Math.max(1, intended - (salt === null ? 0 : 1)), ctx.promptSeed).text;
      }
      const maxTokens =
        w.output_tokens === undefined ? w.max_tokens : drawLength(w.output_tokens, requestRandom(at, "output"));
      const text = saltedPrompt(salt, body);
      // requests of a length distribution carry their workload tag, so the report sets requested against realised
      const tagged = w.input_tokens !== undefined || w.output_tokens !== undefined;
      return {
        prompt: text,
        text,
        intendedTokens: intended,
        maxTokens,
        salt,
        ...(tagged ? {tag: {kind: "synthetic"}} : {})
      };
    }
  };
}
