import {describe, expect, it} from "vitest";

import {
  ARG_REDACTION as R,
  isCredentialName,
  redactArgs,
  redactCommandLine
} from "../../../src/analysis/redact/args.ts";

/** Issue 11 item 1: credentials in launch arguments, one test per form, and tuning evidence that must stay. */
describe("credentials in launch arguments are redacted, by form", () => {
  it("a credential flag followed by its value", () => {
    expect(redactArgs(["--api-key", "SECRET", "--port", "8000"])).toEqual(["--api-key", R, "--port", "8000"]);
    expect(redactArgs(["--hf-token", "hf_abc"])).toEqual(["--hf-token", R]);
    expect(redactArgs(["--password", "p4ss"])).toEqual(["--password", R]);
    expect(redactArgs(["--api_key", "x"])).toEqual(["--api_key", R]);
    expect(redactArgs(["--apiKey", "x"])).toEqual(["--apiKey", R]);
  });

  it("--flag=value", () => {
    expect(redactArgs(["--hf-token=SECRET2"])).toEqual([`--hf-token=${R}`]);
    expect(redactArgs(["--api-key=SECRET"])).toEqual([`--api-key=${R}`]);
    expect(redactArgs(["--client-secret=s"])).toEqual([`--client-secret=${R}`]);
  });

  it("NAME=value environment assignments (*_TOKEN, *_SECRET, *_KEY, *_PASSWORD)", () => {
    expect(redactArgs(["HF_TOKEN=hf_abc", "AWS_SECRET_ACCESS_KEY=x", "OPENAI_API_KEY=sk-1", "DB_PASSWORD=y"])).toEqual([
      `HF_TOKEN=${R}`,
      `AWS_SECRET_ACCESS_KEY=${R}`,
      `OPENAI_API_KEY=${R}`,
      `DB_PASSWORD=${R}`
    ]);
  });

  it("Authorization headers, alone or after -H/--header", () => {
    expect(redactArgs(["-H", "Authorization: Bearer sk-live"])).toEqual(["-H", `Authorization: ${R}`]);
    expect(redactArgs(["--header", "authorization:Basic dXNlcjpwYXNz"])).toEqual(["--header", `authorization:${R}`]);
    expect(redactArgs(["X-Api-Key: abc"])).toEqual([`X-Api-Key: ${R}`]);
  });

  it("a log line or a rendered command line keeps its spacing", () => {
    expect(redactCommandLine("vllm serve m --api-key SECRET --max-num-seqs 64")).toBe(
      `vllm serve m --api-key ${R} --max-num-seqs 64`
    );
    expect(redactCommandLine("env HF_TOKEN=hf_x  CUDA_VISIBLE_DEVICES=0,1 python -m x")).toBe(
      `env HF_TOKEN=${R}  CUDA_VISIBLE_DEVICES=0,1 python -m x`
    );
    expect(redactCommandLine(`curl -H "Authorization: Bearer sk-live" http://h`)).toBe(
      `curl -H "Authorization: ${R}" http://h`
    );
  });
});

describe("tuning evidence stays visible (the negative list)", () => {
  const keep = [
    "--max-num-batched-tokens",
    "8192",
    "--max-tokens",
    "256",
    "--max-model-len",
    "32768",
    "CUDA_VISIBLE_DEVICES=0,1",
    "--tensor-parallel-size",
    "2",
    "--kv-cache-dtype",
    "fp8",
    "--ssl-keyfile",
    "/etc/ssl/key.pem",
    "--tokenizer",
    "meta-llama/Llama-3-8B",
    "--num-speculative-tokens",
    "3",
    "--disable-log-requests",
    "-m",
    "model.gguf",
    "--keep",
    "64",
    "--tokenizer-mode=auto",
    "OMP_NUM_THREADS=8"
  ];
  it("keeps every one of them verbatim", () => {
    expect(redactArgs(keep)).toEqual(keep);
    expect(redactCommandLine(keep.join(" "))).toBe(keep.join(" "));
  });

  it("matches credential words as whole words of the name", () => {
    for (const n of ["--api-key", "--hf-token", "HF_TOKEN", "--password", "SECRET", "x-auth-token", "Authorization"])
      expect(isCredentialName(n), n).toBe(true);
    for (const n of ["--max-num-batched-tokens", "--max-tokens", "--tokenizer", "--keyfile", "--monkey", "--keep"])
      expect(isCredentialName(n), n).toBe(false);
  });
});
