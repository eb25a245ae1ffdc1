/*
 * What the Jest preset (preset/*.js, plain JavaScript) takes from the build: its one entry into
 * dist/ (`require('../dist/preset-api.js')`), exactly the names it uses and typed, so `npm run
 * typecheck` checks the preset's calls (each preset file is `// @ts-check`). Not the package's
 * public API (that is index.ts).
 *
 * One function a preset file, each loading its modules when called: a Jest worker that only
 * transforms contracts never loads the reporters' modules, and a reporter never loads the runtime.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded when called, for start-up */

type Transform = typeof import('./runner/transform');
type Config = typeof import('./runner/config');
type Runtime = typeof import('./runner/runtime');
type Wip = typeof import('./runner/wip');
type FileStores = typeof import('./runner/file-stores');
type Report = typeof import('./runner/report');
type Coverage = typeof import('./runner/coverage');
type Files = typeof import('./files/index');
type Printable = typeof import('./printable');
type Errors = typeof import('./errors');
type Page = typeof import('./html/page');

/** preset/transformer.js: a `.spec` file turned into a Jest test file. */
export function transformer(): Pick<Transform, 'transformSpec' | 'cacheKey'> {
  const { transformSpec, cacheKey } = require('./runner/transform') as Transform;
  return { transformSpec, cacheKey };
}

/** preset/environment.js: the runner's configuration and the worker's runtime on the test file's global. */
export function environment(): Pick<Config, 'resolveRunnerConfig' | 'CONFIG_GLOBAL' | 'RUNTIME_GLOBAL' | 'REPORT_GLOBAL'> & Pick<Runtime, 'createRuntime'> & Pick<Wip, 'isWip'> {
  const { resolveRunnerConfig, CONFIG_GLOBAL, RUNTIME_GLOBAL, REPORT_GLOBAL } = require('./runner/config') as Config;
  const { createRuntime } = require('./runner/runtime') as Runtime;
  const { isWip } = require('./runner/wip') as Wip;
  return { resolveRunnerConfig, CONFIG_GLOBAL, RUNTIME_GLOBAL, REPORT_GLOBAL, createRuntime, isWip };
}

/** preset/test-runner.js: what a file recorded, put on its results. */
export function testRunner(): Pick<Wip, 'attachWipVerdicts'> &
  Pick<FileStores, 'withFileStores'> &
  Pick<Config, 'CONSUMERS_GLOBAL' | 'OUTLINE_GLOBAL' | 'REPORT_GLOBAL'> &
  Pick<Report, 'replayedConsumers'> {
  const { attachWipVerdicts } = require('./runner/wip') as Wip;
  const { withFileStores } = require('./runner/file-stores') as FileStores;
  const { CONSUMERS_GLOBAL, OUTLINE_GLOBAL, REPORT_GLOBAL } = require('./runner/config') as Config;
  const { replayedConsumers } = require('./runner/report') as Report;
  return { attachWipVerdicts, withFileStores, CONSUMERS_GLOBAL, OUTLINE_GLOBAL, REPORT_GLOBAL, replayedConsumers };
}

/** preset/coverage-reporter.js: contract coverage after the run. */
export function coverageReporter(): Pick<Coverage, 'belowThreshold' | 'contractCoverage' | 'coverageJson' | 'findWsdl' | 'formatCoverage' | 'readOutline' | 'readThreshold'> &
  Pick<Files, 'writeOutputFile'> &
  Pick<Printable, 'inert' | 'printable'> {
  const { belowThreshold, contractCoverage, coverageJson, findWsdl, formatCoverage, readOutline, readThreshold } = require('./runner/coverage') as Coverage;
  const { writeOutputFile } = require('./files/index') as Files;
  const { inert, printable } = require('./printable') as Printable;
  return { belowThreshold, contractCoverage, coverageJson, findWsdl, formatCoverage, readOutline, readThreshold, writeOutputFile, inert, printable };
}

/** preset/report-writer.js: the HTML report of the run. */
export function reportWriter(): Pick<Errors, 'AccordError'> &
  Pick<Page, 'htmlPage'> &
  Pick<Report, 'reportContract' | 'testReportData'> &
  Pick<Files, 'writeOutputFile'> &
  Pick<Printable, 'inert' | 'printable'> {
  const { AccordError } = require('./errors') as Errors;
  const { htmlPage } = require('./html/page') as Page;
  const { reportContract, testReportData } = require('./runner/report') as Report;
  const { writeOutputFile } = require('./files/index') as Files;
  const { inert, printable } = require('./printable') as Printable;
  return { AccordError, htmlPage, reportContract, testReportData, writeOutputFile, inert, printable };
}

/** preset/jest-junit-properties.js: a skipped @WIP test's verdict as jest-junit properties. */
export function junitProperties(): Wip['wipJunitProperties'] {
  return (require('./runner/wip') as Wip).wipJunitProperties;
}
