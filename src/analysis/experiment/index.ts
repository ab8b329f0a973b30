export {argsDiff, options, type ArgsDiff} from "./argsDiff.ts";
export {
  experimentView,
  plannedCommand,
  specPairs,
  SPEC_PARAM,
  type ExperimentView,
  type SpecPair,
  type VariantView
} from "./view.ts";
