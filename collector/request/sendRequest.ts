import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {requestBody, type ChatMessage} from "./body.ts";
import {sendStreamed, type Attempt, type RequestTarget, type Tracker} from "./send.ts";
import type {StreamResult} from "./types.ts";
import {endpointUrl, type Endpoint} from "./url.ts";

/** What differs between the streamed requests of the load points, the case suite and the probe. */
export interface RequestSpec {
  /** Request id, also sent as X-Request-ID (collector/request/id.ts). */
  id: string;
  endpoint: Endpoint;
  prompt: string | readonly ChatMessage[];
  maxTokens: number;
  ignoreEos: boolean;
  continuousUsage: boolean;
  keepText: boolean;
  /** Further top-level body fields (tools, tool_choice…). */
  extra?: Record<string, unknown>;
}

/**
 * Builds one streamed request of a run — the URL and model of the configured target, the workload's
 * temperature, the body — and sends it through the run's request target (headers, timeouts, pool,
 * the one re-send rule). The single builder of the load points, the case suite and the probe.
 */
export function sendRequest(
  t: RequestTarget,
  config: RunConfig,
  spec: RequestSpec,
  tracker?: Tracker
): Promise<StreamResult & {attempts: Attempt[]}> {
  const body = requestBody({
    model: config.target.model,
    endpoint: spec.endpoint,
    prompt: spec.prompt,
    maxTokens: spec.maxTokens,
    temperature: config.workload.temperature,
    ignoreEos: spec.ignoreEos,
    continuousUsage: spec.continuousUsage,
    ...(spec.extra === undefined ? {} : {extra: spec.extra})
  });
  const url = endpointUrl(config.target.base_url, spec.endpoint);
  const one = {url, id: spec.id, body, keepText: spec.keepText};
  return sendStreamed(t, spec.endpoint === "embeddings" ? {...one, json: {inputs: 1}} : one, tracker);
}
