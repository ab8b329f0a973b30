/** The English table: every English string of the site, by key, assembled from one file per area. */
import {enCost} from "./en/cost.ts";
import {enExperiment} from "./en/experiment.ts";
import {enHardware} from "./en/hardware.ts";
import {enQuality} from "./en/quality.ts";
import {enReport} from "./en/report.ts";
import {enSite} from "./en/site.ts";
import {enSpec} from "./en/spec.ts";
import {enWorkload} from "./en/workload.ts";

export const en = {
  ...enSite,
  ...enReport,
  ...enQuality,
  ...enSpec,
  ...enExperiment,
  ...enHardware,
  ...enCost,
  ...enWorkload
} as const;

export type UiKey = keyof typeof en;
