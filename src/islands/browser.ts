/**
 * The browser barrel: the only analysis code an island may bundle. It names pure modules one by one
 * (never src/analysis/index.ts, which would pull Node-only ingest code into the page's script).
 */
export type {Candidate} from "../analysis/select/candidates.ts";
export {selectConfigs, type Constraints} from "../analysis/select/select.ts";
