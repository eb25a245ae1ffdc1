export { parseContract, loadContract, testCases } from './contract/load';
export type { Contract, Scenario, TestCase } from './contract/model';
export { AccordError } from './errors';
export { runCase, formatCaseReport } from './runner/run-case';
export { startExampleService } from './example/service';
