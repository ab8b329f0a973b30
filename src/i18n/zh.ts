/** The Chinese (zh-CN) table: the same keys as en.ts, assembled from one file per area. */
import type {UiKey} from "./en.ts";
import {zhCost} from "./zh/cost.ts";
import {zhExperiment} from "./zh/experiment.ts";
import {zhHardware} from "./zh/hardware.ts";
import {zhQuality} from "./zh/quality.ts";
import {zhReport} from "./zh/report.ts";
import {zhSite} from "./zh/site.ts";
import {zhSpec} from "./zh/spec.ts";
import {zhWorkload} from "./zh/workload.ts";

export const zh: Record<UiKey, string> = {
  ...zhSite,
  ...zhReport,
  ...zhQuality,
  ...zhSpec,
  ...zhExperiment,
  ...zhHardware,
  ...zhCost,
  ...zhWorkload
};
