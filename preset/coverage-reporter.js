'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');
const coverage = require('../dist/runner/coverage.js');
const { writeOutputFile } = require('../dist/files/index.js');

/**
 * The preset's Jest reporter: after the run, contract coverage (scenarios passed, failed, @WIP,
 * not run; WSDL operations without a scenario) on stderr and in a JSON file, and a failed run
 * when `coverageThreshold` is not met. Settings come from `testEnvironmentOptions.accord`
 * (coverageThreshold, coverageFile, wsdl) or from this reporter's own options when it is listed
 * by hand in `reporters`.
 */
class AccordCoverageReporter {
  constructor(globalConfig, options) {
    this.rootDir = globalConfig.rootDir;
    this.options = options || {};
    this.files = new Map();
    this.error = undefined;
  }

  onTestResult(test, result) {
    if (!result.testFilePath.endsWith('.spec')) return;
    const outcomes = (result.testResults || []).map((t) => ({ title: t.title, status: t.status }));
    // The outline comes from the test runner (test-runner.js); a file that could not run has none and is parsed here.
    this.files.set(result.testFilePath, { outcomes, outline: result.accordOutline });
  }

  onRunComplete(contexts) {
    if (this.files.size === 0) return;
    const project = [...(contexts || [])][0];
    const accord = { ...((project && project.config.testEnvironmentOptions && project.config.testEnvironmentOptions.accord) || {}), ...this.options };
    const root = (project && project.config.rootDir) || this.rootDir;
    const named = accord.wsdl && typeof accord.wsdl === 'object' ? accord.wsdl : {};
    const list = [];
    const notes = [];
    for (const [file, { outcomes, outline }] of [...this.files].sort(([a], [b]) => a.localeCompare(b))) {
      const source = readFileSync(file, 'utf8');
      const rel = path.relative(root, file).split(path.sep).join('/');
      const wsdlFile = named[rel] ? path.resolve(root, named[rel]) : coverage.importedFrom(file, source);
      let wsdl;
      if (wsdlFile) {
        try {
          wsdl = { file: wsdlFile, operations: coverage.wsdlOperations(wsdlFile) };
        } catch (e) {
          if (!e || e.name !== 'AccordError') throw e;
          notes.push(`  ${rel}: the WSDL ${path.relative(root, wsdlFile)} could not be read: ${e.describe().split('\n')[0]}`);
        }
      }
      list.push(coverage.contractCoverage(file, outline || coverage.readOutline(file, source), outcomes, wsdl));
    }
    process.stderr.write(coverage.formatCoverage(list, root) + (notes.length ? `${notes.join('\n')}\n` : ''));
    if (accord.coverageFile !== false) {
      const out = path.resolve(root, typeof accord.coverageFile === 'string' ? accord.coverageFile : 'accord-coverage.json');
      writeOutputFile(out, coverage.coverageJson(list, root), { force: true, shown: path.relative(root, out) });
    }
    const { threshold, problems } = coverage.readThreshold(accord.coverageThreshold);
    const failures = [...problems, ...coverage.belowThreshold(list, threshold)];
    if (failures.length > 0) {
      process.stderr.write(`accord contract coverage: ${failures.join('; ')}\n`);
      this.error = new Error(`accord contract coverage: ${failures.join('; ')}`);
    }
  }

  getLastError() {
    return this.error;
  }
}

module.exports = AccordCoverageReporter;
