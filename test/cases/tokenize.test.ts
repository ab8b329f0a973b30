import {describe, expect, it} from "vitest";

import {RunConfigSpec} from "../../src/analysis/schema/config.ts";
import {tokenCounter} from "../../collector/env/probe.ts";

/** The long-context cases size their prompts with POST /tokenize; llama.cpp reads only `content`. */
describe("tokenCounter", () => {
  const config = RunConfigSpec.parse({
    target: {base_url: "http://127.0.0.1:9/v1", model: "m"},
    load: {mode: "concurrency", values: [1]}
  });
  const fakeHttp = (answer: (body: Record<string, unknown>) => unknown) => ({
    http: async (r: {body?: string}) => ({
      status: 200,
      headers: {},
      body: JSON.stringify(answer(JSON.parse(r.body ?? "{}") as Record<string, unknown>)),
      truncated: false
    })
  });

  it("skips a 200 with no tokens for a non-empty text (llama.cpp ignores {model, prompt}) and tries {content}", async () => {
    const count = tokenCounter(
      fakeHttp((b) => ({tokens: typeof b.content === "string" ? [1, 2, 3, 4] : []})) as never,
      config,
      null
    );
    expect(await count("four tokens of text")).toBe(4);
  });

  it("takes vLLM's count from the first form, and 0 for an empty text", async () => {
    const count = tokenCounter(
      fakeHttp((b) => ({count: typeof b.prompt === "string" ? (b.prompt as string).length : 0})) as never,
      config,
      null
    );
    expect(await count("abc")).toBe(3);
    expect(await count("")).toBe(0);
  });

  it("is null when neither form counts", async () => {
    const count = tokenCounter(fakeHttp(() => ({tokens: []})) as never, config, null);
    expect(await count("text")).toBeNull();
  });
});
