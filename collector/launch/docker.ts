import {fillTemplate, type LauncherSpec} from "../../src/analysis/schema/experiment.ts";
import type {Effects, ExecResult} from "../effects.ts";
import {freePort} from "./port.ts";
import type {Launched, LaunchRequest, TeardownStep} from "./types.ts";

type Spec = Extract<LauncherSpec, {kind: "docker"}>;

const DOCKER_TIMEOUT_MS = 120_000;

const outcome = (r: ExecResult): {ok: boolean; detail: string | null} =>
  r.ok
    ? {ok: r.code === 0, detail: r.code === 0 ? null : `exit ${r.code}: ${r.stderr.trim().slice(0, 500)}`}
    : {ok: false, detail: r.notFound ? "docker not found" : r.error};

/** The container name of a variant: unique per launch, so a leftover never collides with a new one. */
export function containerName(experiment: string, variant: string, nonce: string): string {
  return `inferscope-${experiment}-${variant}`.slice(0, 100) + `-${nonce}`;
}

/**
 * Tears a container down so that it can never come back holding GPU memory: first the restart policy is
 * disabled (a `--restart always` container that is only stopped is started again by the daemon), then it
 * is stopped (SIGTERM, SIGKILL after the grace), then removed; finally its absence is checked.
 */
export async function stopContainer(
  fx: Pick<Effects, "exec">,
  docker: string,
  container: string,
  graceS: number,
  beforeRemove?: () => Promise<void>
): Promise<TeardownStep[]> {
  const steps: TeardownStep[] = [];
  const run = async (step: string, args: string[], timeoutMs = DOCKER_TIMEOUT_MS) => {
    const r = await fx.exec(docker, args, {timeoutMs});
    const o = outcome(r);
    steps.push({step, ...o});
    return o.ok;
  };
  await run(`docker update --restart=no ${container}`, ["update", "--restart=no", container]);
  await run(`docker stop -t ${graceS} ${container}`, ["stop", "-t", String(graceS), container], (graceS + 60) * 1000);
  await beforeRemove?.(); // the last of the logs: once removed, the container's logs are gone
  await run(`docker rm -f ${container}`, ["rm", "-f", container]);
  const inspect = await fx.exec(docker, ["inspect", "--format", "{{.State.Status}}", container], {
    timeoutMs: DOCKER_TIMEOUT_MS
  });
  const gone = !inspect.ok || inspect.code !== 0;
  steps.push({
    step: `container ${container} gone`,
    ok: gone,
    detail: gone ? null : `still present (${inspect.ok ? inspect.stdout.trim() : ""})`
  });
  return steps;
}

/** The `docker run` arguments of a variant (detached, published on 127.0.0.1 only). */
export function dockerRunArgs(
  spec: Spec,
  o: {container: string; port: number; args: string[]; env: Record<string, string>; labels: Record<string, string>}
): string[] {
  return [
    "run",
    "--detach",
    "--name",
    o.container,
    "--restart",
    spec.restart,
    ...Object.entries(o.labels).flatMap(([k, v]) => ["--label", `${k}=${v}`]),
    "--publish",
    `127.0.0.1:${o.port}:${spec.container_port}`,
    ...(spec.gpus === undefined ? [] : ["--gpus", spec.gpus]),
    ...Object.entries(o.env).flatMap(([k, v]) => ["--env", `${k}=${v}`]),
    ...spec.run_args,
    spec.image,
    ...o.args
  ];
}

/** Starts the variant's container; its logs are read from docker, its teardown is stopContainer. */
export async function launchDocker(req: LaunchRequest & {experiment: string; nonce: string}): Promise<Launched> {
  const spec = req.launcher as Spec;
  const port = spec.port ?? (await freePort());
  const vars = {
    ...req.vars,
    port: String(spec.container_port),
    host_port: String(port),
    host: "0.0.0.0",
    variant: req.variant
  };
  const args = [...spec.args, ...req.extraArgs].map((a, i) => fillTemplate(a, vars, `launcher.args[${i}]`));
  const env = Object.fromEntries(
    Object.entries(spec.env).map(([k, v]) => [k, fillTemplate(v, vars, `launcher.env.${k}`)])
  );
  const container = containerName(req.experiment, req.variant, req.nonce);
  const runArgs = dockerRunArgs(spec, {
    container,
    port,
    args,
    env,
    labels: {"inferscope.experiment": req.experiment, "inferscope.variant": req.variant}
  });
  const command = [spec.docker, ...runArgs];
  const started = await req.fx.exec(spec.docker, runArgs, {timeoutMs: DOCKER_TIMEOUT_MS * 5});
  const o = outcome(started);
  let stopping: Promise<TeardownStep[]> | undefined;
  const readLogs = async () => {
    const r = await req.fx.exec(spec.docker, ["logs", "--tail", "20000", container], {timeoutMs: DOCKER_TIMEOUT_MS});
    return r.ok ? `${r.stdout}${r.stderr}` : `[inferscope: docker logs failed: ${r.error}]`;
  };
  let lastLogs: string | null = null;
  const stop = () =>
    (stopping ??= stopContainer(req.fx, spec.docker, container, spec.stop_grace_s, async () => {
      lastLogs = await readLogs();
    }));
  if (!o.ok) {
    // `docker run` may have created the container before failing (a bad GPU request): never leave it
    const steps = await stop();
    const failed = steps.filter((s) => !s.ok && !/^docker (update|stop)/.test(s.step));
    throw new Error(
      `docker run failed (${o.detail})${failed.length > 0 ? `; teardown: ${failed.map((s) => s.step).join(", ")}` : ""}`
    );
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    command,
    handle: {kind: "docker", variant: req.variant, container, docker: spec.docker},
    exited: async () => {
      const r = await req.fx.exec(
        spec.docker,
        ["inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", container],
        {timeoutMs: DOCKER_TIMEOUT_MS}
      );
      if (!r.ok || r.code !== 0) return "the container is gone";
      const [status, code] = r.stdout.trim().split(" ");
      return status === "running" || status === "created" || status === "restarting"
        ? null
        : `container ${status} (exit code ${code})`;
    },
    // after the teardown, the logs as read just before the container was removed
    logs: async () => lastLogs ?? (await readLogs()),
    stop
  };
}
