/**
 * Renders a sharded experiment as Kubernetes objects (issue 17): a ConfigMap with the run config and an
 * Indexed Job (completionMode Indexed, parallelism = completions = shards) whose pods each run
 * `inferscope collect --shards N --start-at T`, the shard index from $JOB_COMPLETION_INDEX. The API key
 * comes from a Secret by reference; anti-affinity spreads the pods over nodes; the collector runs as a
 * non-root user with requests = limits.
 */
import type {K8sPlan} from "./plan.ts";

export const CONFIG_MOUNT = "/config";
export const EVIDENCE_MOUNT = "/evidence";
export const CONFIG_KEY = "run.yaml";
/** The collector image's user (collector/k8s/Dockerfile). */
export const COLLECTOR_UID = 10001;

export interface RenderInput {
  plan: K8sPlan;
  /** The run config's text (already validated and checked shardable). */
  configText: string;
  /** The config's target.api_key_env, or null. */
  apiKeyEnv: string | null;
  /** The absolute start time (ISO), from start_at or start_delay_s. */
  startAt: string;
}

/**
 * The container's command line: exactly what every pod runs. On a shared (ReadWriteMany) volume the pods
 * also meet before the first measured phase and each phase after it (`--barrier-dir`), in a folder of this Job's own
 * (Kubernetes expands `$(JOB_UID)` from the pod's env: the Job's uid, new each time the Job is created, so a
 * re-applied manifest never meets the files of an earlier attempt); a pod-local emptyDir has no folder they
 * all see, so there the later phases start when each pod's previous one ends (G32 judges the spread).
 */
/** The env variable that holds the Job's uid (the downward API, from the label the Job controller sets). */
export const JOB_UID_ENV = "JOB_UID";

export function shardCommand(shards: number, startAt: string, sharedVolume: boolean): string[] {
  return [
    "collect",
    "--config",
    `${CONFIG_MOUNT}/${CONFIG_KEY}`,
    "--shards",
    String(shards),
    "--start-at",
    startAt,
    "--out",
    EVIDENCE_MOUNT,
    ...(sharedVolume ? ["--barrier-dir", `${EVIDENCE_MOUNT}/.barrier/$(${JOB_UID_ENV})`] : []),
    "--no-progress"
  ];
}

/** The collector's env: the API key by reference to its Secret, and the Job's uid where there is a barrier. */
function containerEnv(o: RenderInput): Record<string, unknown>[] {
  const {plan} = o;
  return [
    ...(o.apiKeyEnv === null || plan.api_key_secret === undefined
      ? []
      : [
          {name: o.apiKeyEnv, valueFrom: {secretKeyRef: {name: plan.api_key_secret.name, key: plan.api_key_secret.key}}}
        ]),
    // set by the Job controller on its pods (Kubernetes ≥ 1.27); empty before, and the pods then share the
    // claim's one barrier folder
    ...("claim" in plan.evidence
      ? [
          {
            name: JOB_UID_ENV,
            valueFrom: {fieldRef: {fieldPath: "metadata.labels['batch.kubernetes.io/controller-uid']"}}
          }
        ]
      : [])
  ];
}

export function renderK8s(o: RenderInput): Record<string, unknown>[] {
  const {plan} = o;
  const labels = {"app.kubernetes.io/name": "inferscope-collector", "inferscope/experiment": plan.name};
  const ns = plan.namespace === undefined ? {} : {namespace: plan.namespace};
  const configMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {name: `${plan.name}-config`, ...ns, labels},
    data: {[CONFIG_KEY]: o.configText}
  };
  const resources = {cpu: String(plan.resources.cpu), memory: String(plan.resources.memory)};
  const env = containerEnv(o);
  const evidence =
    "claim" in plan.evidence
      ? {name: "evidence", persistentVolumeClaim: {claimName: plan.evidence.claim}}
      : {name: "evidence", emptyDir: {}};
  const job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {name: plan.name, ...ns, labels},
    spec: {
      completionMode: "Indexed",
      completions: plan.shards,
      parallelism: plan.shards,
      // a retried pod would start late and alone: the merge would say so, but better to see the failure
      backoffLimit: 0,
      template: {
        metadata: {labels},
        spec: {
          restartPolicy: "Never",
          securityContext: {
            runAsNonRoot: true,
            runAsUser: COLLECTOR_UID,
            runAsGroup: COLLECTOR_UID,
            fsGroup: COLLECTOR_UID
          },
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: {
                    topologyKey: "kubernetes.io/hostname",
                    labelSelector: {matchLabels: {"inferscope/experiment": plan.name}}
                  }
                }
              ]
            }
          },
          ...(plan.node_selector === undefined ? {} : {nodeSelector: plan.node_selector}),
          containers: [
            {
              name: "collector",
              image: plan.image,
              args: shardCommand(plan.shards, o.startAt, "claim" in plan.evidence),
              env,
              resources: {requests: resources, limits: resources},
              securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: false},
              volumeMounts: [
                {name: "config", mountPath: CONFIG_MOUNT, readOnly: true},
                {name: "evidence", mountPath: EVIDENCE_MOUNT}
              ]
            }
          ],
          volumes: [{name: "config", configMap: {name: configMap.metadata.name}}, evidence]
        }
      }
    }
  };
  return [configMap, job];
}
