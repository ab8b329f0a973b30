import {ensureEngine} from "./engine.ts";
import type {PresetName} from "./generateModel.ts";
import {startLlamaServer} from "./supervisor.ts";

export interface SmokeResult {
  ttftMs: number;
  /** Client-side: (completion tokens − 1) ÷ (last content chunk − first content chunk). */
  decodeTokS: number;
  /** Server-side, from the llama.cpp `timings` object. */
  serverPrefillTokS: number;
  serverDecodeTokS: number;
  promptTokens: number;
  completionTokens: number;
  totalMs: number;
}

/** One streamed chat completion, timed on the client; ignore_eos and cache_prompt:false for clean numbers. */
export async function timedChat(baseUrl: string, model: string, maxTokens: number, salt: string): Promise<SmokeResult> {
  const start = performance.now();
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({
      model,
      messages: [{role: "user", content: `${salt} Write a short story about a lighthouse keeper and the sea.`}],
      max_tokens: maxTokens,
      temperature: 0.8,
      ignore_eos: true,
      cache_prompt: false,
      stream: true,
      stream_options: {include_usage: true}
    })
  });
  if (res.status !== 200 || !res.body) throw new Error(`chat completion failed: http ${res.status}`);
  let first: number | undefined;
  let last = start;
  let usage: {prompt_tokens: number; completion_tokens: number} | undefined;
  let timings: {prompt_per_second: number; predicted_per_second: number} | undefined;
  let pending = "";
  const decoder = new TextDecoder();
  for await (const bytes of res.body) {
    pending += decoder.decode(bytes as Uint8Array, {stream: true});
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const chunk = JSON.parse(line.slice(6)) as {
        choices: {delta?: {content?: string | null}}[];
        usage?: typeof usage;
        timings?: typeof timings;
      };
      if (chunk.choices[0]?.delta?.content) {
        first ??= performance.now();
        last = performance.now();
      }
      if (chunk.usage) usage = chunk.usage;
      if (chunk.timings) timings = chunk.timings;
    }
  }
  const end = performance.now();
  if (!usage || first === undefined) throw new Error("stream ended without content or usage");
  return {
    ttftMs: first - start,
    decodeTokS: (usage.completion_tokens - 1) / ((last - first) / 1000),
    serverPrefillTokS: timings?.prompt_per_second ?? NaN,
    serverDecodeTokS: timings?.predicted_per_second ?? NaN,
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalMs: end - start
  };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const get = (flag: string, fallback: string): string => {
    const i = argv.indexOf(flag);
    return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
  };
  const preset = get("--preset", "tiny") as PresetName;
  const requests = Number(get("--requests", "3"));
  const maxTokens = Number(get("--max-tokens", "64"));
  const threads = Number(get("--threads", "2"));
  try {
    const engine = await ensureEngine({preset, seed: 1, build: !argv.includes("--no-build")});
    const server = await startLlamaServer({
      binary: engine.binary.path,
      model: engine.model.path,
      threads,
      alias: preset
    });
    try {
      const results: SmokeResult[] = [];
      await timedChat(server.baseUrl, preset, 8, "warmup");
      for (let i = 0; i < requests; i++) results.push(await timedChat(server.baseUrl, preset, maxTokens, `#${i}`));
      const round = (x: number): number => Math.round(x * 10) / 10;
      console.log(
        JSON.stringify(
          {
            preset,
            threads,
            modelSeconds: round(engine.model.seconds),
            modelReused: engine.model.reused,
            readyMs: round(server.readyMs),
            results: results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)])))
          },
          null,
          2
        )
      );
    } finally {
      await server.stop();
    }
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
