/** Strings of the cost and energy views of selection, matrix and Pareto (issue 15). */
export const enCost = {
  costUsdPerMOutput: "$/Mtok output",
  costUsdPerRequest: "$/request",
  costJoulesPerToken: "J/token",
  costMaxUsdPerMOutput: "$ per million output tokens ≤",
  costMaxJoulesPerToken: "J per output token ≤",
  costLimitUsd: "$/Mtok output ≤ {v}",
  costLimitJoules: "J/token ≤ {v}",
  costRankBy: "Rank by",
  costRankThroughput: "throughput per GPU, highest first",
  costRankCost: "$/Mtok output, lowest first",
  costSparse: "from too few power samples to trust",
  costSelectNote:
    "$/Mtok output is the decode share of the GPU cost at the load point's measured window and throughput; J/token is the GPUs' measured energy per output token. — marks an unknown value (the reason is its tooltip); * marks energy from too few power samples. An unknown cost or energy never meets a limit: the configuration is excluded with the reason.",
  costMatrixNote:
    "Cost at the shown load point: $ per million output tokens and $ per successful request. — marks an unknown cost; the reason is its tooltip.",
  costParetoYAxis: "y axis",
  costParetoThroughputView: "throughput per GPU (higher is better)",
  costParetoCostView: "$/Mtok output (lower is better)",
  costParetoThroughputHeading: "Throughput per GPU against interactivity",
  costParetoCostHeading: "Cost against interactivity",
  costParetoCostYLabel: "$ per million output tokens (lower is better)",
  costParetoCostFrontier:
    "Within each hardware · engine group, the frontier joins the points no other point beats on both axes: more interactivity and a lower $/Mtok output.",
  costParetoNotPlotted: "Configurations not plotted (cost unknown): {n}.",
  costParetoNoCostPoints: "No load point has a known cost."
};
