export { importWsdl, DEFAULT_PATH, type ImportOptions, type ImportResult, type ImportSummary } from './import';
export { describeImport, holeLines, isPartial, PARTIAL_HINT, partialLines } from './summary';
export { loadWsdl, type Unresolved } from './load';
export type { SoapVersion } from './model';
