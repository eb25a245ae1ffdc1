// @ts-check
'use strict';
const { contractList, partialRun, recordResult } = require('./coverage-reporter.js');
const { HtmlReport } = require('./report-writer.js');

/**
 * `reporters: ['default', ['accord-contracts/report', { outputFile: 'reports/accord.html' }]]`: the
 * HTML report of the run (default `accord-report.html` in the rootDir), one self-contained file. The
 * preset's own coverage reporter writes the same report when `testEnvironmentOptions.accord.report`
 * is set; this reporter is for a project that lists its reporters, or wants the report without
 * touching the project's settings (`--reporters=default --reporters=accord-contracts/report`).
 */
class AccordReportReporter {
  constructor(globalConfig, options) {
    this.globalConfig = globalConfig || {};
    this.options = options || {};
    this.projects = new Map();
  }

  onRunStart() {
    this.projects = new Map();
  }

  onTestResult(test, result) {
    recordResult(this.projects, test, result);
  }

  onRunComplete(contexts) {
    if (this.projects.size === 0) return;
    const all = [...(contexts || [])];
    const html = new HtmlReport(this.globalConfig);
    for (const [config, files] of this.projects) {
      const project = config || (all[0] && all[0].config) || {};
      const accord = (project.testEnvironmentOptions && project.testEnvironmentOptions.accord) || {};
      const root = project.rootDir || this.globalConfig.rootDir;
      const list = contractList(files, root, accord);
      const partial = partialRun(
        this.globalConfig,
        all.find((c) => c.config === config),
        files,
      );
      html.add(root, files, list, partial, this.options.outputFile || (typeof accord.report === 'string' ? accord.report : true));
    }
    html.write(all);
  }
}

module.exports = AccordReportReporter;
