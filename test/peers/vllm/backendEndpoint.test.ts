import {readFileSync} from "node:fs";
import {join} from "node:path";

import {parse} from "yaml";
import {describe, expect, it} from "vitest";

import {isSummary, VLLM_CHAT_TTFT_CAVEAT} from "../../../src/analysis/index.ts";
import {importAndAnalyzeTexts, SYNTH} from "../helpers.ts";

/**
 * B7: which API a vLLM result was measured on, from its client backend. vLLM's ASYNC_REQUEST_FUNCS
 * (benchmarks/backend_request_func.py, later vllm/benchmarks/lib/endpoint_request_func.py) map `vllm`, `openai`,
 * `lmdeploy`, `scalellm`, `sglang` and `llama.cpp` to async_request_openai_completions (/v1/completions), only
 * `openai-chat` to async_request_openai_chat_completions, and `tgi`, `tensorrt-llm`, `deepspeed-mii`, `openai-audio`,
 * embeddings and rerank to clients of other APIs. `vllm bench serve` writes the backend as `backend` and, for
 * backward compatibility, `endpoint_type`.
 *
 * The audit's file (aurotripathy/vllm-bench @ 83f55897, `openai-10.0qps-…-concurrency2-Llama-3.1-8B-Instruct-
 * 20250325-225936.json`; no licence, not committed) has `"backend": "openai"` and no endpoint_type: that is
 * benchmark_serving's completions client, so its TTFT ends at the first text chunk and needs no chat caveat.
 */
const base = JSON.parse(readFileSync(join(SYNTH, "vllm/vllm-2024-detailed.json"), "utf8")) as Record<string, unknown>;

async function importWith(client: Record<string, string>) {
  const {backend: _backend, ...rest} = base;
  const doc = {...rest, ...client};
  const {run, report, files} = await importAndAnalyzeTexts("vllm", [{name: "vllm.json", text: JSON.stringify(doc)}]);
  const config = parse(files["config.resolved.yaml"]!) as {target: {endpoint: string}};
  const unknownEndpoint = files["config.resolved.yaml"]!.includes("#   target.endpoint");
  const ttftRows = report.source_comparison!.filter((r) => /_ttft_ms$/.test(r.metric));
  const ttft = report.load_points[0]!.metrics.ttft_ms!;
  return {
    endpoint: config.target.endpoint,
    unknownEndpoint,
    noteCaveat: run.notes.includes(VLLM_CHAT_TTFT_CAVEAT),
    rowCaveat: ttftRows.some((r) => (r.note ?? "").includes("role-only chunk")),
    metricCaveat: isSummary(ttft) && (ttft.note ?? "").includes("vLLM issue #15106")
  };
}

describe("a vLLM result's endpoint, from its client backend (ASYNC_REQUEST_FUNCS)", () => {
  it('backend "openai" (the audit\'s 2025-03 file) is the completions client: endpoint known, no chat caveat', async () => {
    expect(await importWith({backend: "openai"})).toEqual({
      endpoint: "completions",
      unknownEndpoint: false,
      noteCaveat: false,
      rowCaveat: false,
      metricCaveat: false
    });
  });

  it("every completions backend, under backend or endpoint_type, reads as completions", async () => {
    for (const name of ["vllm", "lmdeploy", "scalellm", "sglang", "llama.cpp"])
      expect((await importWith({backend: name})).endpoint, name).toBe("completions");
    expect(await importWith({endpoint_type: "openai", backend: "openai"})).toMatchObject({
      endpoint: "completions",
      noteCaveat: false
    });
  });

  it('backend "openai-chat" is the chat client: endpoint chat (known), with the role-chunk caveat', async () => {
    expect(await importWith({endpoint_type: "openai-chat", backend: "openai-chat"})).toEqual({
      endpoint: "chat",
      unknownEndpoint: false,
      noteCaveat: true,
      rowCaveat: true,
      metricCaveat: true
    });
  });

  it("a client of another API (tgi) leaves the endpoint unknown and takes no chat caveat", async () => {
    expect(await importWith({backend: "tgi"})).toMatchObject({unknownEndpoint: true, noteCaveat: false});
  });

  it("an unknown or missing backend may have been chat: endpoint unknown, caveat kept", async () => {
    expect(await importWith({backend: "my-fork-client"})).toMatchObject({unknownEndpoint: true, noteCaveat: true});
    expect(await importWith({})).toMatchObject({unknownEndpoint: true, noteCaveat: true, rowCaveat: true});
  });
});
