// @ts-check
'use strict';
const { mkdirSync } = require('node:fs');
const path = require('node:path');
const { AccordError, htmlPage, reportContract, testReportData, writeOutputFile, inert, printable } = require('../dist/preset-api.js').reportWriter();

const DEFAULT_FILE = 'accord-report.html';

/**
 * The HTML report of one run (src/runner/report.ts gives it its data, src/html/page.ts its page):
 * every contract of every project that asked for it, one file per output path. Used by the coverage
 * reporter (the preset's `report` setting) and by the `accord-contracts/report` reporter.
 */
class HtmlReport {
  constructor(globalConfig) {
    this.globalConfig = globalConfig || {};
    /** Output path -> { root, contracts, partial, consumers }. */
    this.outputs = new Map();
  }

  /** `files`: contract file -> { tests, exchanges, consumers } from the test results; `list`: their coverage, in the same order as sorted paths. */
  add(root, files, list, partial, setting) {
    const out = path.resolve(root, typeof setting === 'string' && setting !== '' ? setting : DEFAULT_FILE);
    if (!this.outputs.has(out)) this.outputs.set(out, { root, contracts: [], partial: [], consumers: [] });
    const entry = this.outputs.get(out);
    if (partial) entry.partial.push(partial);
    for (const c of list) {
      const f = files.get(c.file) || {};
      const rel = path.relative(root, c.file).split(path.sep).join('/');
      // The WSDL named as the contract is, from the rootDir: a report is an artifact, not a map of the build machine.
      const wsdl = c.wsdl && { ...c.wsdl, file: path.relative(root, c.wsdl.file).split(path.sep).join('/') };
      entry.contracts.push(reportContract(rel, wsdl ? { ...c, wsdl } : c, f.tests || [], f.exchanges || {}, f.skipped || {}));
      if (Array.isArray(f.consumers)) entry.consumers.push(...f.consumers);
    }
  }

  write(contexts) {
    for (const [out, { root, contracts, partial, consumers }] of this.outputs) {
      const shown = path.relative(root, out) || out;
      const { watcherSees } = require('./coverage-reporter.js');
      if (watcherSees(out, this.globalConfig, contexts || [])) {
        process.stderr.write(
          `${inert(printable(`  ${shown} not written: in watch mode Jest would see it change and start another run; add it to watchPathIgnorePatterns to have it written`))}\n`,
        );
        continue;
      }
      const data = testReportData(contracts, { partial: partial.join('; ') || undefined, consumers });
      try {
        mkdirSync(path.dirname(out), { recursive: true });
        writeOutputFile(out, htmlPage(data), { force: true, shown });
        process.stderr.write(`${inert(printable(`accord report: ${shown}`))}\n`);
      } catch (e) {
        // A report that cannot be written is said in one line; it does not change the run's outcome.
        if (!(e instanceof AccordError) && !(e && e.code)) throw e;
        process.stderr.write(`${inert(printable(`accord report not written: ${e.message}`))}\n`);
      }
    }
  }
}

/** Whether a run's reporters (Jest takes them from the top-level config and the command line) include the HTML report reporter. */
function hasReportReporter(globalConfig) {
  const ours = require.resolve('./report-reporter.js');
  return ((globalConfig && globalConfig.reporters) || []).some((r) => {
    const name = Array.isArray(r) ? r[0] : r;
    return typeof name === 'string' && (name === ours || name === 'accord-contracts/report' || /[\\/]preset[\\/]report-reporter\.js$/.test(name));
  });
}

module.exports = { HtmlReport, hasReportReporter, DEFAULT_FILE };
