import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {ARG_REDACTION as R} from "../../src/analysis/index.ts";
import {importAndAnalyzeTexts, SYNTH} from "./helpers.ts";

/**
 * Q5: no credential of the source run reaches an imported bundle. Each input is a real or synthetic file with
 * credentials put where the tools write them; every file the bundle would hold (config, manifest, sources,
 * requests: helpers' bundleTexts, the same texts the CLI writes) is searched for each secret, and the
 * settings around them must survive.
 */
const AIPERF_REAL = "test/fixtures/peers/aiperf/0.8.0-audit-bare/profile_export_aiperf.json";

/** Every file of the bundle as one text. */
const allText = (files: Record<string, string>): string => Object.values(files).join("\n");

describe("credentials never reach an imported bundle", () => {
  it("AIPerf: input_config's api_key and headers, and --api-key in the recorded command line", async () => {
    // the committed AIPerf 0.8.0 aggregate, with what `aiperf profile --api-key … -H …` records added
    const doc = JSON.parse(readFileSync(AIPERF_REAL, "utf8")) as {input_config: Record<string, unknown>};
    const ic = doc.input_config as {endpoint: Record<string, unknown>; artifacts: Record<string, unknown>};
    ic.endpoint.api_key = "sk-aiperf-SECRET-1";
    ic.endpoint.headers = {Authorization: "Bearer sk-aiperf-SECRET-2", "X-Api-Key": "SECRET-3-xapikey"};
    ic.endpoint.extra = [["max_tokens", 300]];
    ic.artifacts.cli_command = `aiperf profile --model 'mock-model' --url 'http://aiperf-mock-server:8000/v1' --api-key "sk-aiperf-SECRET-4" --extra-inputs max_tokens:300 --header "Authorization: Bearer sk-aiperf-SECRET-5"`;
    const {files, run} = await importAndAnalyzeTexts("aiperf", [
      {name: "profile_export_aiperf.json", text: JSON.stringify(doc)}
    ]);
    const text = allText(files);
    // nor the import's result, whose warnings and notes the CLI prints
    for (const s of ["SECRET-1", "SECRET-2", "SECRET-3", "SECRET-4", "SECRET-5"]) {
      expect(text).not.toContain(s);
      expect(JSON.stringify(run)).not.toContain(s);
    }
    const source = JSON.parse(files["source.jsonl"]!.trim()) as {
      aggregates: {input_config: {endpoint: Record<string, unknown>; artifacts: {cli_command: string}}};
    };
    const endpoint = source.aggregates.input_config.endpoint;
    expect(endpoint.api_key).toBe(R);
    expect(endpoint.headers).toEqual({Authorization: R, "X-Api-Key": R});
    // what is not a credential is kept verbatim: the model, the URL, max_tokens
    expect(endpoint.extra).toEqual([["max_tokens", 300]]);
    expect(endpoint.urls).toEqual(["http://aiperf-mock-server.default.svc.cluster.local:8000/v1"]);
    expect(source.aggregates.input_config.artifacts.cli_command).toBe(
      `aiperf profile --model 'mock-model' --url 'http://aiperf-mock-server:8000/v1' --api-key ${R} --extra-inputs max_tokens:300 --header "Authorization: ${R}"`
    );
    expect(files["config.resolved.yaml"]).toContain("model: mock-model");
  });

  it("GuideLLM: a token in the target URL's userinfo and query, and a backend's api_key and headers", async () => {
    const doc = JSON.parse(readFileSync(join(SYNTH, "guidellm/benchmarks.json"), "utf8")) as {
      args: Record<string, unknown>;
      benchmarks: {config: Record<string, unknown>}[];
    };
    const target = "http://bench:pw-SECRET-6@127.0.0.1:8000/v1?api_key=SECRET-7-query";
    doc.args.target = target;
    doc.args.backend_kwargs = {api_key: "SECRET-8-kwargs", headers: {Authorization: "Bearer SECRET-9-hdr"}};
    doc.benchmarks[0]!.config.backend = {target, model: "synthetic/guidellm", api_key: "SECRET-10-backend"};
    const {files, run} = await importAndAnalyzeTexts("guidellm", [
      {name: "benchmarks.json", text: JSON.stringify(doc)}
    ]);
    const text = allText(files);
    for (const s of ["SECRET-6", "SECRET-7", "SECRET-8", "SECRET-9", "SECRET-10"]) {
      expect(text).not.toContain(s);
      expect(JSON.stringify(run)).not.toContain(s);
    }
    // the target stays readable: host, port and path, which parameter was sent, that there was a user
    expect(files["config.resolved.yaml"]).toContain(`base_url: http://${R}@127.0.0.1:8000/v1?api_key=${R}`);
    const manifest = JSON.parse(files["manifest.json"]!) as {environment: {server: {baseUrl: string}}};
    expect(manifest.environment.server.baseUrl).toBe(`http://${R}@127.0.0.1:8000/v1?api_key=${R}`);
    expect(files["config.resolved.yaml"]).toContain("model: synthetic/guidellm");
    expect(run.model).toBe("synthetic/guidellm");
  });

  it("vLLM: a request's error text that quotes a tokenised URL and an Authorization header", async () => {
    const doc = JSON.parse(readFileSync(join(SYNTH, "vllm/vllm-2025-detailed.json"), "utf8")) as {errors: string[]};
    doc.errors[7] =
      "ClientResponseError: 401, url='http://h:8000/v1/chat/completions?token=SECRET-11-url', headers: Authorization: Bearer SECRET-12-bearer";
    const {files, run} = await importAndAnalyzeTexts("vllm", [{name: "vllm.json", text: JSON.stringify(doc)}]);
    const text = allText(files);
    for (const s of ["SECRET-11", "SECRET-12"]) expect(text).not.toContain(s);
    expect(run.requests[7]!.errorMessage).toBe(
      `ClientResponseError: 401, url='http://h:8000/v1/chat/completions?token=${R}', headers: Authorization: ${R}`
    );
  });
});
