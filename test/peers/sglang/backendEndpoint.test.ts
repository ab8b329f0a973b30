import {readFileSync} from "node:fs";
import {join} from "node:path";

import {parse} from "yaml";
import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts, SYNTH} from "../helpers.ts";

/**
 * SGLang's bench_serving backends by the API they call (its ASYNC_REQUEST_FUNCS): `sglang-oai`, `vllm`,
 * `lmdeploy` → /v1/completions; `*-chat` → /v1/chat/completions; `sglang` → /v1/completions in the 2024 client,
 * the native /generate later, so unknown. vLLM's table (where `sglang` is a completions client) is not SGLang's.
 */
const line = JSON.parse(
  readFileSync(join(SYNTH, "sglang/sglang-bench-serving.jsonl"), "utf8").split("\n")[1]!
) as Record<string, unknown>;

async function endpointWith(backend: string): Promise<{endpoint: string; unknown: boolean}> {
  const {files} = await importAndAnalyzeTexts("sglang", [
    {name: "s.jsonl", text: `${JSON.stringify({...line, backend})}\n`}
  ]);
  const yaml = files["config.resolved.yaml"]!;
  return {
    endpoint: (parse(yaml) as {target: {endpoint: string}}).target.endpoint,
    unknown: yaml.includes("#   target.endpoint")
  };
}

describe("an SGLang result's endpoint, from its bench_serving backend", () => {
  it("sglang-oai and vllm are completions, sglang-oai-chat is chat, sglang and sglang-native are unknown", async () => {
    expect(await endpointWith("sglang-oai")).toEqual({endpoint: "completions", unknown: false});
    expect(await endpointWith("vllm")).toEqual({endpoint: "completions", unknown: false});
    expect(await endpointWith("sglang-oai-chat")).toEqual({endpoint: "chat", unknown: false});
    expect((await endpointWith("sglang")).unknown).toBe(true);
    expect((await endpointWith("sglang-native")).unknown).toBe(true);
  });
});
