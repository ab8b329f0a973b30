import {readFileSync} from "node:fs";
import {join} from "node:path";

import {parse} from "yaml";
import {describe, expect, it} from "vitest";

import type {RequestRecord} from "../../../src/analysis/schema/records.ts";
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

describe("an SGLang request's output count, by bench_serving backend", () => {
  // bench_serving's trt client sets every output_len to the requested length (async_request_trt_llm); its other
  // clients write the server's count (meta_info, or a streamed usage chunk)
  const first = JSON.parse(
    readFileSync(join(SYNTH, "sglang/sglang-bench-serving.jsonl"), "utf8").split("\n")[0]!
  ) as Record<string, unknown> & {output_lens: number[]};
  const records = async (backend: string) => {
    const {files} = await importAndAnalyzeTexts("sglang", [
      {name: "s.jsonl", text: `${JSON.stringify({...first, backend})}\n`}
    ]);
    return files["requests.jsonl"]!.trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RequestRecord);
  };

  it("trt: no count (the requested length is not what was generated), the reason kept", async () => {
    const rs = await records("trt");
    expect(rs.map((r) => r.usage?.completionTokens ?? null)).toEqual([null, null, null, null, null]);
    expect(rs.map((r) => r.usageSource)).toEqual(["none", "none", "none", "none", "none"]);
    expect(rs[0]!.nullReasons?.completionTokens).toMatch(/requested output length/);
  });

  it("sglang-oai: the file's counts (10, 14, 16, …) as the server's", async () => {
    const rs = await records("sglang-oai");
    expect(rs.map((r) => r.usage?.completionTokens)).toEqual(first.output_lens);
    expect(new Set(rs.map((r) => r.usageSource))).toEqual(new Set(["server_final"]));
  });
});
