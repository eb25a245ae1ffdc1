// The package's public surface (`require('accord-contracts')`): every API the README and docs/
// describe, with its types. Nothing else is reachable from outside (package.json `exports`).
export { parseContract, loadContract, testCases } from './contract/load';
export type { Contract, Scenario, TestCase } from './contract/model';
export { AccordError } from './errors';
export type { ErrorCode } from './errors';
export { runCase, formatCaseReport } from './runner/run-case';
export { startStub, DEFAULT_MAX_BODY_BYTES, connectStub, accordMatchers, FAULT_KINDS } from './stub';
export type {
  StubOptions,
  RunningStub,
  ContractSource,
  NotServed,
  StubClient,
  ExpectationInput,
  ExpectationHandle,
  ScenarioRef,
  CallFilter,
  JournalEntry,
  CallCount,
  FaultKind,
  Delay,
  TemplateValue,
} from './stub';
export { checkCompatibility, compareVersions, formatJson as formatCompatibilityJson, formatText as formatCompatibilityText, RULES as COMPATIBILITY_RULES } from './compat';
export type { Verdict as CompatibilityVerdict, Finding as CompatibilityFinding } from './compat';
export { encompasses } from './pattern/compare/index';
export type { Difference } from './pattern/compare/index';
export { importLogs, readExchanges, checkExchange } from './logs';
export type { ImportLogOptions, ImportResult, LogReport, Exchange } from './logs';
export { importWsdl } from './wsdl';
export type { ImportOptions as WsdlImportOptions, ImportResult as WsdlImportResult, ImportSummary as WsdlImportSummary, SoapVersion } from './wsdl';
