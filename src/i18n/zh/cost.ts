import type {enCost} from "../en/cost.ts";

/** 选型、矩阵与 Pareto 中成本与能耗视图的中文字符串（issue 15），与 en/cost.ts 同键。 */
export const zhCost: Record<keyof typeof enCost, string> = {
  costUsdPerMOutput: "$/百万输出 token",
  costUsdPerRequest: "$/请求",
  costJoulesPerToken: "J/token",
  costMaxUsdPerMOutput: "每百万输出 token 成本（美元）≤",
  costMaxJoulesPerToken: "每输出 token 能耗（焦耳）≤",
  costLimitUsd: "$/百万输出 token ≤ {v}",
  costLimitJoules: "J/token ≤ {v}",
  costRankBy: "排序依据",
  costRankThroughput: "每 GPU 吞吐，从高到低",
  costRankCost: "$/百万输出 token，从低到高",
  costSparse: "功率采样过少，不可信",
  costSelectNote:
    "$/百万输出 token 是该负载点实测时间窗与吞吐下 GPU 成本中解码所占的部分；J/token 是 GPU 实测的每输出 token 能耗。— 表示未知（原因见悬停提示）；* 表示能耗来自过少的功率采样。成本或能耗未知的配置永远不满足上限：它会带着原因被排除。",
  costMatrixNote: "所示负载点的成本：每百万输出 token 美元数与每个成功请求美元数。— 表示成本未知，原因见悬停提示。",
  costParetoYAxis: "y 轴",
  costParetoThroughputView: "每 GPU 吞吐（越高越好）",
  costParetoCostView: "$/百万输出 token（越低越好）",
  costParetoThroughputHeading: "每 GPU 吞吐与交互性",
  costParetoCostHeading: "成本与交互性",
  costParetoCostYLabel: "每百万输出 token 美元数（越低越好）",
  costParetoCostFrontier:
    "在每个硬件 · 引擎组内，前沿连接在两个轴上都不被其他点超越的点：交互性更高且 $/百万输出 token 更低。",
  costParetoNotPlotted: "未绘制的配置（成本未知）：{n} 个。",
  costParetoNoCostPoints: "没有负载点的成本已知。"
};
