/** The Chinese (zh-CN) table: the same keys as en.ts, assembled from one file per area. */
import type {UiKey} from "./en.ts";
import {zhQuality} from "./zh/quality.ts";
import {zhReport} from "./zh/report.ts";
import {zhSite} from "./zh/site.ts";

export const zh: Record<UiKey, string> = {...zhSite, ...zhReport, ...zhQuality};
