export { importWsdl, DEFAULT_PATH, type ImportOptions, type ImportResult, type ImportSummary } from './import';
export { describeImport, isPartial, partialLines } from './summary';
export { loadWsdl, type Unresolved } from './load';
export type { SoapVersion } from './model';
