import {redactText, redactValue} from "../../redact/value.ts";
import type {ImportedRun} from "./types.ts";

/**
 * What an importer wrote about the run (model, labels, notes, environment, workload), with every credential
 * redacted (redact/value.ts): the one pass the config and the manifest of every imported bundle go through.
 * Sources and requests are redacted where they are built (build.ts). importPeer (registry.ts) returns every run
 * through it, so the warnings the CLI prints are clean too; bundle.ts applies it again (it is idempotent).
 */
export function redactedRun(run: ImportedRun): ImportedRun {
  return {
    ...run,
    toolVersion: run.toolVersion === null ? null : redactText(run.toolVersion),
    model: run.model === null ? null : redactText(run.model),
    workload: redactValue(run.workload),
    environment: redactValue(run.environment),
    labels: redactValue(run.labels),
    notes: redactValue(run.notes),
    ...(run.warnings ? {warnings: redactValue(run.warnings)} : {}),
    statusReason: run.statusReason === null ? null : redactText(run.statusReason)
  };
}
