import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {encodeGgufToBuffer} from "../../../scripts/engine/gguf/writer.ts";
import {collectAndAnalyze, tempDir, testConfig, testEffects} from "../helpers.ts";

let fake: FakeServer;
const t = tempDir();
beforeAll(async () => {
  fake = await startFakeServer({port: 0});
});
afterAll(async () => {
  await fake.close();
  t.cleanup();
});

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

describe("the run's fingerprint", () => {
  it("records the host's memory bandwidth passes and the model file named by -m", async () => {
    const model = join(t.dir, "m.gguf");
    writeFileSync(
      model,
      encodeGgufToBuffer({
        metadata: new Map([["general.architecture", {type: "string", value: "llama"}]]),
        tensors: [{name: "w", dims: [2], type: "F32", data: new Uint8Array(8)}]
      })
    );
    const config = testConfig(fake.url, {
      target: {base_url: fake.url, model: "fake-model", launch_args: ["-m", model]}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    expect(report.issues).toEqual([]);
    const env = manifestOf(outcome.dir).environment;
    expect(env.host.memoryBandwidth).toMatchObject({method: "parallel-copy", error: null});
    expect(env.host.memoryBandwidth!.trials).toHaveLength(5);
    expect(env.model).toMatchObject({
      reason: null,
      file: {
        format: "gguf",
        path: model,
        metadata: {"general.architecture": "llama"},
        tensorTypes: {F32: {tensors: 1, elements: 2}}
      }
    });
  });

  it("INFERSCOPE_NO_BANDWIDTH=1 skips the bandwidth probe; no model path is a reason", async () => {
    const fx = testEffects({env: {INFERSCOPE_NO_BANDWIDTH: "1"}});
    const {outcome} = await collectAndAnalyze(testConfig(fake.url), t.dir, fx);
    const env = manifestOf(outcome.dir).environment;
    expect(env.host.memoryBandwidth).toMatchObject({trials: [], error: "skipped: INFERSCOPE_NO_BANDWIDTH=1"});
    expect(env.model).toEqual({file: null, reason: "the server named no model file (no /props model_path)"});
  });
});
