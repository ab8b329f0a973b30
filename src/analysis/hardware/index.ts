/** The hardware views' door: catalogue data, host, model facts, memory fit, roofline, cost, energy. */
export {
  HardwareDataError,
  matchCard,
  parseCatalogue,
  parseEngines,
  parsePriceOverrides,
  parsePrices,
  unknownHardwareIds,
  type HardwareData
} from "./data.ts";
export {known, unknown} from "./fact.ts";
export {capacityOf, fitRow, serverMemory} from "./fit.ts";
export {hostBandwidth, measuredHost, p2pStatus} from "./host.ts";
export {modelFacts} from "./model.ts";
export {chosenPrice, priceKey} from "./price.ts";
export {decodeBound, fractionOf} from "./roofline.ts";
export {cacheSplit, pointCost, timingSource} from "./cost.ts";
export {GAP_INTERVALS, MIN_GAP_S, MIN_POWER_SAMPLES, maxPowerGapNs, windowEnergy} from "./energy.ts";
export {ABOVE_BOUND, hardwareBlock, serverSlots} from "./block.ts";
export type {Fact, FitRow, HardwareReport, MeasuredHost, ModelFacts, PointHardware} from "./schema.ts";
export {
  KV_DTYPE_BYTES,
  NUMBER_FORMATS,
  type EngineFeature,
  type EngineMatrix,
  type GpuCatalogue,
  type GpuEntry,
  type NumberFormat,
  type PriceRow,
  type PriceTable,
  type Source,
  type SourcedNumber,
  type Support
} from "../schema/hardware.ts";
