/** Every measured request (or an even sample) as schedule → dispatch → first token → end. */
import {t} from "../../i18n/index.ts";
import {renderChart} from "../render.ts";
import {requestTimeline} from "../requestTimeline.ts";
import type {ReportChartAdapter} from "./common.ts";

/** More rows than this are sampled evenly. */
const MAX_ROWS = 300;

export const requestTimelineChart: ReportChartAdapter = ({rows, lang}) => {
  if (rows.length === 0) return [];
  return [
    {
      id: "chart-timeline",
      caption: t(lang, "chartRequestTimelineScheduleDispatch"),
      note:
        rows.length > MAX_ROWS
          ? t(lang, "chartAnEvenSampleOf", {max: MAX_ROWS, rows: rows.length})
          : t(lang, "chartAllMeasuredRequests", {rows: rows.length}),
      svg: renderChart((document) =>
        requestTimeline(
          rows.map((r) => ({
            id: r.id,
            point: r.point,
            sched: r.tSchedMs,
            disp: r.tDispMs,
            tok1: r.tTok1Ms,
            end: r.tEndMs
          })),
          {
            document,
            maxRows: MAX_ROWS,
            xLabel: t(lang, "chartRunTimeS"),
            yLabel: t(lang, "chartRequestsScheduleOrder"),
            phases: {
              wait: t(lang, "chartPhaseWait"),
              prefill: t(lang, "chartPhasePrefill"),
              decode: t(lang, "chartPhaseDecode")
            }
          }
        )
      )
    }
  ];
};
