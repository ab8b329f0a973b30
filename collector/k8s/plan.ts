/**
 * The plan of a sharded experiment on Kubernetes (`inferscope k8s --plan FILE`, issue 17): which image runs
 * the collector, how many shards, when they start, where the API key and the bundles live.
 */
import {z} from "zod";

import {START_AT_WINDOW_MS} from "../../src/analysis/schema/shard.ts";

const DnsLabel = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/, "expected a DNS label: lowercase letters, digits, '-', at most 42")
  .describe("Kubernetes name (DNS label)");
const Quantity = z.union([
  // Kubernetes' quantity: a decimal number with one optional suffix (binary Ki…Ei, decimal n…E, or an exponent)
  z
    .string()
    .regex(
      /^(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][-+]?\d+)?$/,
      "expected a Kubernetes quantity (2, 0.5, 500m, 2Gi)"
    ),
  z.number().positive()
]);

export const K8sPlan = z
  .strictObject({
    name: DnsLabel.describe("the Job's name; the ConfigMap is <name>-config"),
    namespace: DnsLabel.optional(),
    image: z.string().min(1).describe("the collector image (collector/k8s/Dockerfile)"),
    config: z.string().min(1).describe("the run config file, relative to the plan; it goes into the ConfigMap"),
    shards: z.number().int().min(1).max(1024).describe("pods = shards; each runs shard $JOB_COMPLETION_INDEX"),
    start_at: z.iso.datetime({offset: true}).optional().describe("when every shard starts its measured load"),
    start_delay_s: z
      .number()
      .positive()
      .max(
        START_AT_WINDOW_MS / 1000,
        `a shard refuses a start time more than ${START_AT_WINDOW_MS / 3_600_000} h away (collect --start-at)`
      )
      .optional()
      .describe(
        "instead of start_at: this long after rendering (pods must be scheduled, pulled and warmed up by then)"
      ),
    api_key_secret: z
      .strictObject({name: DnsLabel, key: z.string().min(1)})
      .optional()
      .describe("the Secret holding the API key named by the config's target.api_key_env (never in the ConfigMap)"),
    evidence: z
      .union([
        z.strictObject({claim: DnsLabel.describe("a ReadWriteMany PersistentVolumeClaim for the bundles")}),
        z.strictObject({empty_dir: z.literal(true).describe("pod-local: copy the bundles out before the pod goes")})
      ])
      .default({empty_dir: true}),
    resources: z
      .strictObject({cpu: Quantity.default("2"), memory: Quantity.default("2Gi")})
      .default({cpu: "2", memory: "2Gi"})
      .describe("requests = limits: a collector with a guaranteed share of its cores measures steadily"),
    node_selector: z.record(z.string(), z.string()).optional()
  })
  .refine((p) => (p.start_at === undefined) !== (p.start_delay_s === undefined), {
    message: "give start_at or start_delay_s (one of them)"
  });
export type K8sPlan = z.infer<typeof K8sPlan>;
