export { parseContract, loadContract, testCases } from './contract/load';
export type { Contract, Scenario, TestCase } from './contract/model';
export { AccordError } from './errors';
export { runCase, formatCaseReport } from './runner/run-case';
export { startExampleService } from './example/service';
export { startStub, DEFAULT_MAX_BODY_BYTES } from './stub';
export type { StubOptions, RunningStub, ContractSource, NotServed } from './stub';
