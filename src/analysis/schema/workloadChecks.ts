import type {z} from "zod";

import type {LengthDist, WorkloadSource} from "./workload.ts";

/** What the cross-field checks read of a run config (the shapes of config.ts, before its transforms). */
interface Checked {
  target: {endpoint?: string | undefined};
  workload: {
    prompt_text?: string | undefined;
    input_tokens?: LengthDist | undefined;
    output_tokens?: LengthDist | undefined;
    source?: WorkloadSource | undefined;
  };
  load: Block | Block[];
}
interface Block {
  mode: string;
  requests?: number | undefined;
  duration_s?: number | undefined;
  warmup?: number | undefined;
}

const isEmpirical = (d: LengthDist | undefined): boolean => typeof d === "object" && d.dist === "empirical";

/**
 * The rules that tie a workload source to the load blocks and to the other workload fields (issue 16):
 * trace arrivals only with a trace, sessions only in closed loop with whole conversations, length
 * distributions where they apply, conversations only where a turn is answered. Each issue names its path.
 */
export function checkWorkload(c: Checked, ctx: z.RefinementCtx): void {
  const blocks = Array.isArray(c.load) ? c.load : [c.load];
  const at = (i: number, key?: string) => (Array.isArray(c.load) ? ["load", i] : ["load"]).concat(key ?? []);
  const w = c.workload;
  const kind = w.source?.kind ?? "synthetic";
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({code: "custom", path, message});
  if (kind !== "synthetic") {
    for (const k of ["prompt_text", "input_tokens", "output_tokens"] as const)
      if (w[k] !== undefined)
        issue(["workload", k], `${k} applies to synthetic prompts; with source ${kind}, set lengths in the source`);
  }
  if (kind === "sessions" && c.target.endpoint === "embeddings")
    issue(["workload", "source", "kind"], "sessions are conversations: an embeddings endpoint answers no turn");
  for (const k of ["input_tokens", "output_tokens"] as const)
    if (isEmpirical(w[k])) issue(["workload", k], "empirical lengths come from a dataset: use source kind dataset");
  const s = w.source;
  if (s?.kind === "dataset" && isEmpirical(s.input_tokens))
    issue(["workload", "source", "input_tokens"], "a text corpus has no item lengths: give a distribution");
  if (s?.kind === "dataset" && s.format === "text" && isEmpirical(s.output_tokens))
    issue(["workload", "source", "output_tokens"], "a text corpus has no answer lengths: give a distribution");
  if (s?.kind === "shared_prefix" || s?.kind === "sessions")
    for (const [k, d] of Object.entries(s))
      if (isEmpirical(d as LengthDist)) issue(["workload", "source", k], "empirical lengths come from a dataset");
  blocks.forEach((b, i) => {
    if (b.mode === "trace" && kind !== "trace")
      issue(at(i, "mode"), "mode trace replays workload.source: set source kind trace (with its path)");
    if (kind === "trace" && b.mode !== "trace")
      issue(
        at(i, "mode"),
        `a trace sets its own arrivals: use mode trace (the value is the replay speed), not ${b.mode}`
      );
    if (s?.kind !== "sessions") return;
    if (b.mode !== "concurrency")
      issue(at(i, "mode"), "sessions run in closed loop: mode concurrency (the value is the number of users)");
    if (b.duration_s !== undefined)
      issue(at(i, "duration_s"), "sessions need requests (a whole number of conversations), not duration_s");
    // the load block's defaults (requests 100, warmup 8) are filled in before this check runs
    for (const k of ["requests", "warmup"] as const) {
      const n = b[k];
      if (n !== undefined && n % s.turns !== 0)
        issue(at(i, k), `${k} ${n} is not a multiple of turns ${s.turns}: a conversation is never cut`);
    }
  });
}
