import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {ensureEngine, type Engine} from "../../scripts/engine/engine.ts";
import {startLlamaServer, type LlamaServerHandle} from "../../scripts/engine/supervisor.ts";

/** Real-engine test: runs when llama-server is on PATH or cached, or builds it (~11 min) with INFERSCOPE_BUILD_ENGINE=1. */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const available = await findLlamaServer();
const skip = available === undefined && !build;
if (skip) {
  console.warn(
    "skipping test/engine/llamaServer.test.ts: no llama-server on PATH or in the cache; " +
      "set INFERSCOPE_BUILD_ENGINE=1 to build it (~11 min on 2 cores) or run: npx node scripts/engine/buildLlamaServer.ts"
  );
}

interface ChatChunk {
  choices: {delta: {role?: string; content?: string | null}; finish_reason: string | null}[];
  usage?: {prompt_tokens: number; completion_tokens: number; total_tokens: number};
  timings?: Record<string, number>;
}

describe.skipIf(skip)("real llama-server with the tiny random model", () => {
  let engine: Engine;
  let server: LlamaServerHandle;

  beforeAll(async () => {
    engine = await ensureEngine({preset: "tiny", seed: 1, build});
    server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      parallel: 2,
      ctxPerSlot: 1024,
      threads: 2,
      alias: "tiny"
    });
  }, 45 * 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("answers /health", async () => {
    const res = await fetch(`${server.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({status: "ok"});
  });

  it("lists the alias on /v1/models", async () => {
    const body = (await (await fetch(`${server.baseUrl}/v1/models`)).json()) as {data: {id: string}[]};
    expect(body.data.map((m) => m.id)).toContain("tiny");
  });

  it("streams a chat completion with a role chunk, a usage chunk with timings, and [DONE]", async () => {
    const res = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({
        model: "tiny",
        messages: [{role: "user", content: "Say hello in three words."}],
        max_tokens: 16,
        temperature: 0.8,
        seed: 1,
        ignore_eos: true,
        stream: true,
        stream_options: {include_usage: true}
      })
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const data = (await res.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice("data: ".length));
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as ChatChunk);
    expect(chunks[0]?.choices[0]?.delta).toEqual({role: "assistant", content: null});
    expect(chunks.some((c) => c.choices[0]?.finish_reason === "length")).toBe(true);
    const usage = chunks.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage).toMatchObject({completion_tokens: 16});
    expect(usage?.usage?.prompt_tokens).toBeGreaterThan(5);
    expect(usage?.timings).toMatchObject({predicted_n: 16});
    expect(typeof usage?.timings?.prompt_ms).toBe("number");
  });
});
