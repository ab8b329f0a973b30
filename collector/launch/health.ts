import type {HealthSpec} from "../../src/analysis/schema/experiment.ts";
import type {Effects} from "../effects.ts";
import {endpointUrl, type Endpoint} from "../request/url.ts";
import type {Launched} from "./types.ts";

type Health = ReturnType<typeof HealthSpec.parse>;

export interface HealthWait {
  fx: Pick<Effects, "http" | "clock" | "sleep" | "log">;
  server: Launched;
  health: Health;
  /** The model the runs will ask for (null: any listed model counts). */
  model: string | null;
  endpoint: Endpoint;
  /** True once the experiment is interrupted: the wait ends at once. */
  stopped: () => boolean;
  label: string;
}

export type HealthResult = {ready: true; readyMs: number; model: string | null} | {ready: false; reason: string};

/** One readiness step: null when it passed, else what it saw. */
type Step = () => Promise<string | null>;

const PROGRESS_EVERY_MS = 10_000;

async function get(fx: HealthWait["fx"], url: string, body?: string): Promise<{status: number; body: string} | string> {
  try {
    const r = await fx.http({
      url,
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined ? {} : {body, headers: {"content-type": "application/json"}}),
      timeoutMs: 30_000,
      maxBytes: 1 << 20
    });
    return {status: r.status, body: r.body};
  } catch (e) {
    return (e as Error).message;
  }
}

/** The readiness steps in order: health URL, the model listed, a first completion. */
function steps(w: HealthWait, found: {model: string | null}): {name: string; run: Step}[] {
  const base = w.server.baseUrl;
  const out: {name: string; run: Step}[] = [];
  if (w.health.path !== null) {
    const path = w.health.path;
    out.push({
      name: `GET ${path}`,
      run: async () => {
        const r = await get(w.fx, `${base}${path}`);
        return typeof r === "string" ? r : r.status === 200 ? null : `status ${r.status}`;
      }
    });
  }
  if (w.health.models)
    out.push({
      name: "GET /v1/models",
      run: async () => {
        const r = await get(w.fx, `${base}/v1/models`);
        if (typeof r === "string") return r;
        if (r.status !== 200) return `status ${r.status}`;
        let ids: string[];
        try {
          ids = ((JSON.parse(r.body) as {data?: {id?: unknown}[]}).data ?? []).map((m) => String(m.id));
        } catch {
          return "not a JSON model list";
        }
        if (w.model !== null && !ids.includes(w.model))
          return `model ${w.model} not listed (${ids.join(", ") || "none"})`;
        if (ids.length === 0) return "no model listed";
        found.model = w.model ?? ids[0]!;
        return null;
      }
    });
  if (w.health.completion)
    out.push({
      name: "a first completion",
      run: async () => {
        const model = found.model ?? w.model ?? "default";
        const body =
          w.endpoint === "chat"
            ? {model, messages: [{role: "user", content: "Hi"}], max_tokens: 1, stream: false}
            : w.endpoint === "completions"
              ? {model, prompt: "Hi", max_tokens: 1, stream: false}
              : {model, input: "Hi"};
        const r = await get(w.fx, endpointUrl(`${base}/v1`, w.endpoint), JSON.stringify(body));
        return typeof r === "string" ? r : r.status === 200 ? null : `status ${r.status}: ${r.body.slice(0, 200)}`;
      }
    });
  return out;
}

/**
 * Waits until the server passes every readiness step in turn, it exits (a failed start), the timeout
 * passes, or the experiment is interrupted. Logs progress every 10 s.
 */
export async function waitReady(w: HealthWait): Promise<HealthResult> {
  const {fx, health} = w;
  const t0 = fx.clock.nowNs();
  const elapsedMs = () => Number(fx.clock.nowNs() - t0) / 1e6;
  const found = {model: w.model};
  let lastLog = -PROGRESS_EVERY_MS;
  for (const step of steps(w, found)) {
    for (;;) {
      if (w.stopped()) return {ready: false, reason: "interrupted while waiting for the server"};
      const exit = await w.server.exited();
      if (exit !== null) return {ready: false, reason: `the server ${exit} before it was ready (at ${step.name})`};
      const why = await step.run();
      if (why === null) break;
      if (elapsedMs() > health.timeout_s * 1000)
        return {ready: false, reason: `not ready after ${health.timeout_s} s: ${step.name}: ${why}`};
      if (elapsedMs() - lastLog >= PROGRESS_EVERY_MS) {
        lastLog = elapsedMs();
        fx.log.info(
          `  ${w.label}: waiting for ${step.name} (${why}), ${Math.round(lastLog / 1000)} s of ${health.timeout_s} s`
        );
      }
      await fx.sleep(health.interval_ms);
    }
  }
  return {ready: true, readyMs: Math.round(elapsedMs()), model: found.model};
}
