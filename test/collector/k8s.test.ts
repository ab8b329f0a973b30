import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {ConfigMap} from "kubernetes-models/v1/ConfigMap";
import {Job} from "kubernetes-models/batch/v1/Job";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {parseAllDocuments} from "yaml";

import {analyzeBundle} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {startFakeServer, type FakeServer} from "../../collector/fake/index.ts";
import {lastLine, runCli as run, tempDir, writeConfig} from "./helpers.ts";

/**
 * Issue 17: `inferscope k8s --plan FILE` renders a sharded experiment as a Kubernetes Indexed Job. The
 * manifests are validated offline against the Kubernetes API schemas (kubernetes-models), and the pod's own
 * command and environment are run here as N local processes, then merged.
 */

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const KEY = "sk-test-abcdef0123456789";

const runConfig = (over: Record<string, unknown> = {}) => ({
  name: "k8s",
  target: {
    base_url: server.url,
    model: "fake-model",
    api_key_env: "LLM_API_KEY",
    headers: {"x-fake-options": JSON.stringify({ttftMs: 10, tokenIntervalMs: 2})}
  },
  workload: {prompt_tokens: 16, max_tokens: 8},
  load: {mode: "concurrency", values: [2], requests: 20, warmup: 2},
  telemetry: {gpu: "off", server_metrics: "off", interval_ms: 200},
  slo: {percentile: "p50"},
  gates: {min_samples: 5},
  ...over
});

function plan(name: string, over: Record<string, unknown> = {}, config: Record<string, unknown> = runConfig()) {
  writeConfig(t.dir, `${name}-run.yaml`, config);
  return writeConfig(t.dir, `${name}-plan.yaml`, {
    name: "bench-70b",
    namespace: "bench",
    image: "registry.example/inferscope-collector:0.1.0",
    config: `${name}-run.yaml`,
    shards: 2,
    start_delay_s: 8,
    api_key_secret: {name: "llm-api", key: "api-key"},
    evidence: {claim: "inferscope-evidence"},
    ...over
  });
}

/** A rendered object, read loosely: the test walks into the Job's spec by hand. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested Kubernetes spec read in assertions
type Loose = any;
type Obj = {kind: string; metadata: {name: string}; spec?: Loose; data?: Record<string, string>};

describe("inferscope k8s (issue 17)", () => {
  it("renders a ConfigMap and an Indexed Job that the Kubernetes API schemas accept", async () => {
    const r = await run(["k8s", "--plan", plan("ok")]);
    expect(r.code, r.stderr).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj);
    expect(docs.map((d) => d.kind)).toEqual(["ConfigMap", "Job"]);
    const [cm, job] = docs as [Obj, Obj];
    expect(() => new ConfigMap(cm as never).validate()).not.toThrow();
    expect(() => new Job(job as never).validate()).not.toThrow();
    const spec = job.spec;
    expect(spec.completionMode).toBe("Indexed");
    expect([spec.parallelism, spec.completions]).toEqual([2, 2]);
    const pod = spec.template.spec;
    const c = pod.containers[0];
    expect(c.args.slice(0, 5)).toEqual(["collect", "--config", "/config/run.yaml", "--shards", "2"]);
    expect(Date.parse(c.args[c.args.indexOf("--start-at") + 1])).toBeGreaterThan(Date.now());
    // the API key comes from the Secret, by reference; the ConfigMap holds the config and no key
    // the Job's uid names the barrier folder (below): from the label the Job controller puts on its pods
    expect(c.env).toEqual([
      {name: "LLM_API_KEY", valueFrom: {secretKeyRef: {name: "llm-api", key: "api-key"}}},
      {name: "JOB_UID", valueFrom: {fieldRef: {fieldPath: "metadata.labels['batch.kubernetes.io/controller-uid']"}}}
    ]);
    expect(cm.data!["run.yaml"]).toBe(readFileSync(join(t.dir, "ok-run.yaml"), "utf8"));
    expect(c.resources.requests).toEqual(c.resources.limits);
    expect(pod.securityContext).toMatchObject({runAsNonRoot: true, runAsUser: 10001});
    expect(
      pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey
    ).toBe("kubernetes.io/hostname");
    expect(pod.volumes).toContainEqual({name: "evidence", persistentVolumeClaim: {claimName: "inferscope-evidence"}});
    // on the shared volume the pods meet before each later measured phase, in a folder of this Job's own
    // (Kubernetes expands $(JOB_UID) in args from the container's env)
    expect(c.args[c.args.indexOf("--barrier-dir") + 1]).toBe("/evidence/.barrier/$(JOB_UID)");
    // pod-local evidence: no folder the pods all see, so no barrier
    const local = await run(["k8s", "--plan", plan("local", {evidence: {empty_dir: true}})]);
    expect(local.code, local.stderr).toBe(0);
    const localJob = parseAllDocuments(local.stdout).map((d) => d.toJS() as Obj)[1]!;
    expect(localJob.spec.template.spec.containers[0].args).not.toContain("--barrier-dir");
    expect(localJob.spec.template.spec.containers[0].env).toEqual([
      {name: "LLM_API_KEY", valueFrom: {secretKeyRef: {name: "llm-api", key: "api-key"}}}
    ]);
    // a schema check that can fail: a Job whose completions is not a number is rejected
    expect(() => new Job({...job, spec: {...spec, completions: "two"}} as never).validate()).toThrow(/completions/);
  });

  it("refuses a config whose key would land in the ConfigMap, a missing Secret, and an unshardable load", async () => {
    const literal = plan(
      "literal",
      {},
      runConfig({target: {...runConfig().target, headers: {authorization: `Bearer ${KEY}`}}})
    );
    const a = await run(["k8s", "--plan", literal]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain("target.headers.authorization holds a secret, which would land in the ConfigMap");
    expect(a.stdout).not.toContain(KEY);
    // credentials written in the URLs or the launch arguments would be copied as written (collect redacts them)
    const inline: [string, Record<string, unknown>, string][] = [
      [
        "userinfo",
        {base_url: server.url.replace("http://", "http://u:pw-INLINE-0001@")},
        "target.base_url holds a user name or password"
      ],
      [
        "query",
        {base_url: `${server.url}?api_key=q-INLINE-0002`},
        "target.base_url holds a secret in its query (api_key=)"
      ],
      [
        "metrics",
        {metrics_url: "http://127.0.0.1:9/metrics?token=m-INLINE-0003"},
        "target.metrics_url holds a secret in its query (token=)"
      ],
      [
        "args",
        {launch_args: ["--port", "8000", "--api-key", "la-INLINE-0004"]},
        "target.launch_args[3] holds a credential ([REDACTED])"
      ]
    ];
    for (const [name, over, said] of inline) {
      const r = await run(["k8s", "--plan", plan(name, {}, runConfig({target: {...runConfig().target, ...over}}))]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toContain(`${said}, which would land in the ConfigMap`);
      expect(r.stdout + r.stderr, name).not.toMatch(/INLINE-000/);
    }
    // a query value under a name that is not a secret's (Azure's api-version) is a setting, kept
    const azure = runConfig({target: {...runConfig().target, base_url: `${server.url}?api-version=2024-06-01`}});
    expect((await run(["k8s", "--plan", plan("azure", {}, azure)])).code).toBe(0);
    // an output it cannot write: exit 5 and one line (a stack trace before)
    const out = await run(["k8s", "--plan", plan("out"), "--out", t.dir]);
    expect(out.code).toBe(5);
    expect(out.stderr).toMatch(/cannot write .*: EISDIR/);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    // a start every pod would refuse (collect --start-at: within 24 h of now) is refused when rendering
    const past = await run([
      "k8s",
      "--plan",
      plan("past", {start_delay_s: undefined, start_at: "2020-01-01T00:00:00Z"})
    ]);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/past-plan\.yaml:\d+:\d+: start_at: 2020-01-01T00:00:00Z is already past/);
    // quantities Kubernetes would reject
    for (const cpu of ["...", "2Bogus", "1.2.3"]) {
      const q = await run(["k8s", "--plan", plan("qty", {resources: {cpu, memory: "2Gi"}})]);
      expect(q.code, cpu).toBe(2);
      expect(q.stderr, cpu).toContain("expected a Kubernetes quantity");
    }
    for (const cpu of ["500m", "0.5", "2", "1e3"])
      expect((await run(["k8s", "--plan", plan("qty-ok", {resources: {cpu, memory: "512Mi"}})])).code, cpu).toBe(0);
    const b = await run(["k8s", "--plan", plan("nosecret", {api_key_secret: undefined})]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("reads its API key from $LLM_API_KEY: name the Secret");
    const c = await run(["k8s", "--plan", plan("three", {shards: 3})]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("concurrency 2 is below the shard count 3");
    const bad = join(t.dir, "bad-plan.yaml");
    writeFileSync(bad, "name: Bench\nimage: x\nconfig: ok-run.yaml\nshards: 2\nstart_delay_s: 5\n");
    const d = await run(["k8s", "--plan", bad]);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain("bad-plan.yaml:1:7: name: expected a DNS label");
    // a start a shard would refuse (more than 24 h after rendering) is refused when rendering
    const e = await run(["k8s", "--plan", plan("far", {start_delay_s: 86_401})]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain("start_delay_s: a shard refuses a start time more than 24 h away");
    // a search is judged from every shard's records, shared on the claim: pod-local evidence cannot
    const search = {load: [{mode: "search", over: "concurrency", range: [2, 8], requests: 20}]};
    const f = await run(["k8s", "--plan", plan("search", {evidence: {empty_dir: true}}, runConfig(search))]);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain("load[0]: a load search over shards needs evidence: {claim: …}");
    const g = await run(["k8s", "--plan", plan("search-claim", {}, runConfig(search))]);
    expect(g.code, g.stderr).toBe(0);
    // shard 0 runs a case suite once every shard's load has ended, which the shards say on the claim
    const suite = {suites: ["case_11_instruction"]};
    const h = await run(["k8s", "--plan", plan("suite", {evidence: {empty_dir: true}}, runConfig(suite))]);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain("suites: a case suite over shards needs evidence: {claim: …}");
    const i = await run(["k8s", "--plan", plan("suite-claim", {}, runConfig(suite))]);
    expect(i.code, i.stderr).toBe(0);
  });

  it("the pod's command and environment, run as 2 local processes, give 2 shards that merge into one run", async () => {
    const r = await run(["k8s", "--plan", plan("pods", {start_delay_s: 7})]);
    const job = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj)[1]!;
    const c = job.spec.template.spec.containers[0];
    // the mounts of the pod: /config (the ConfigMap) and /evidence (the volume)
    const evidence = join(t.dir, "pod-evidence");
    // and the kubelet's expansion of $(VAR) in args from the container's env
    const jobUid = "5f0c2a5e-0000-4000-8000-000000000001";
    const args = (c.args as string[]).map((a) =>
      a === "/config/run.yaml"
        ? join(t.dir, "pods-run.yaml")
        : a.startsWith("/evidence")
          ? evidence + a.slice("/evidence".length).replace("$(JOB_UID)", jobUid)
          : a
    );
    expect(args).toContain(join(evidence, ".barrier", jobUid));
    const env = {LLM_API_KEY: KEY, JOB_UID: jobUid};
    const pods = await Promise.all(["0", "1"].map((k) => run(args, {...env, JOB_COMPLETION_INDEX: k})));
    for (const p of pods) expect(p.code, p.stderr).toBe(4); // a shard alone is inconclusive
    const dirs = pods.map((p) => lastLine(p.stdout));
    const merged = await run(["merge", ...dirs, "--out", join(t.dir, "pods-merged")]);
    const dir = lastLine(merged.stdout);
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.gates.find((g) => g.id === "G30")!.reason).toBe("20 measured requests planned, 20 recorded");
    // the key reached the server and no artifact
    for (const d of [...dirs, dir])
      for (const f of ["manifest.json", "config.resolved.yaml", "requests.jsonl", "client_metrics.jsonl"])
        expect(readFileSync(join(d, f), "utf8")).not.toContain(KEY);
  }, 60_000);
});
