import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {Variant} from "../../src/analysis/schema/experiment.ts";
import {slug} from "../bundle/name.ts";

/**
 * A run config pointed at one launched variant: its URL, the model it serves, its launch command (recorded
 * for reproduction), and labels naming the experiment, the variant and each grid parameter.
 */
export function bindConfig(
  config: RunConfig,
  o: {experiment: string; variant: Variant; baseUrl: string; model: string | null; command: string[] | null}
): RunConfig {
  const {variant} = o;
  const params = Object.fromEntries(Object.entries(variant.params).map(([k, v]) => [k.replace(/^-+/, ""), v]));
  return {
    ...config,
    name: slug(`${config.name}-${variant.name}`, 60),
    labels: {...config.labels, ...params, ...variant.spec.labels, experiment: o.experiment, variant: variant.name},
    target: {
      ...config.target,
      base_url: `${o.baseUrl}/v1`,
      model: variant.spec.model ?? o.model ?? config.target.model,
      // the metrics endpoint follows the server (a config's own metrics_url pointed at another port)
      metrics_url: `${o.baseUrl}/metrics`,
      ...(variant.spec.engine === undefined ? {} : {engine: variant.spec.engine}),
      ...(o.command === null ? {} : {launch_args: o.command})
    }
  };
}
