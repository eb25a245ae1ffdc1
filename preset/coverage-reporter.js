// @ts-check
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const coverage = require('../dist/preset-api.js').coverageReporter();
const { writeOutputFile, inert, printable } = coverage;
const { HtmlReport } = require('./report-writer.js');

/**
 * The preset's Jest reporter: after the run, contract coverage (scenarios passed, failed, @WIP,
 * skipped, not run; negative tests; each WSDL operation's outcome) on stderr and in a JSON file, and
 * a failed run when `coverageThreshold` is not met. Settings come from `testEnvironmentOptions.accord`
 * of the Jest project each contract ran in (coverageThreshold, coverageFile, wsdl; report, for the HTML report of report-writer.js), or from this
 * reporter's own options when it is listed by hand in `reporters`. Jest takes reporters only from the
 * top-level config, so with `projects` it is listed there and reads every project's settings.
 *
 * A run that did not run every test of every contract (`-t`, a path filter, `--shard`,
 * `--onlyFailures`, `--watch`'s changed files) is partial: its summary says so, and it neither
 * writes the coverage file nor checks the threshold. In watch mode the file is written only where
 * Jest's watcher does not look (the preset's `watchPathIgnorePatterns`), or each run would start another.
 */
class AccordCoverageReporter {
  constructor(globalConfig, options) {
    this.globalConfig = globalConfig || {};
    this.rootDir = this.globalConfig.rootDir;
    this.options = options || {};
    /** Project config (or null) -> contract file -> its outcomes and outline. */
    this.projects = new Map();
    this.error = undefined;
    this.report = new HtmlReport(this.globalConfig);
  }

  // In watch mode Jest may keep a reporter for several runs: each run's summary is its own.
  onRunStart() {
    this.projects = new Map();
    this.error = undefined;
    this.report = new HtmlReport(this.globalConfig);
  }

  onTestResult(test, result) {
    recordResult(this.projects, test, result);
  }

  onRunComplete(contexts) {
    if (this.projects.size === 0) return;
    const all = [...(contexts || [])];
    const failures = [];
    const writes = new Map();
    for (const [config, files] of this.projects) {
      const project = config || (all[0] && all[0].config) || {};
      const accord = { ...((project.testEnvironmentOptions && project.testEnvironmentOptions.accord) || {}), ...this.options };
      const root = project.rootDir || this.rootDir;
      const list = contractList(files, root, accord);
      const context = all.find((c) => c.config === config);
      const partial = partialRun(this.globalConfig, context, files);
      const name = this.projects.size > 1 ? projectName(project) : undefined;
      process.stderr.write(coverage.formatCoverage(list, root, partial, name));
      if (accord.report) this.report.add(root, files, list, partial, accord.report);
      if (partial) continue;
      if (accord.coverageFile !== false) {
        const out = path.resolve(root, typeof accord.coverageFile === 'string' ? accord.coverageFile : 'accord-coverage.json');
        if (!writes.has(out)) writes.set(out, { root, list: [] });
        writes.get(out).list.push(...list);
      }
      const { threshold, problems } = coverage.readThreshold(accord.coverageThreshold);
      failures.push(...problems, ...coverage.belowThreshold(list, threshold));
    }
    for (const [out, { root, list }] of writes) {
      const shown = path.relative(root, out) || out;
      if (watcherSees(out, this.globalConfig, all)) {
        const pattern = `/${shown
          .split(path.sep)
          .join('/')
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
        process.stderr.write(
          `${inert(printable(`  ${shown} not written: in watch mode Jest would see it change and start another run; add ${JSON.stringify(pattern)} to watchPathIgnorePatterns to have it written`))}\n`,
        );
        continue;
      }
      writeOutputFile(out, coverage.coverageJson(list, root), { force: true, shown });
    }
    this.report.write(all);
    if (failures.length > 0) {
      process.stderr.write(`${inert(printable(`accord contract coverage: ${failures.join('; ')}`))}\n`);
      this.error = new Error(`accord contract coverage: ${failures.join('; ')}`);
    }
  }

  getLastError() {
    return this.error;
  }
}

/** The coverage of each contract file of a project (sorted by path); `accord` is its settings (the `wsdl` map). */
function contractList(files, root, accord) {
  const named = accord.wsdl && typeof accord.wsdl === 'object' ? accord.wsdl : {};
  const list = [];
  for (const [file, { outcomes, outline }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const source = readFileSync(file, 'utf8');
    const rel = path.relative(root, file).split(path.sep).join('/');
    const wsdl = coverage.findWsdl(file, source, root, typeof named[rel] === 'string' ? named[rel] : undefined);
    list.push(coverage.contractCoverage(file, outline || coverage.readOutline(file, source), outcomes, wsdl));
  }
  return list;
}

function projectName(config) {
  const d = config.displayName;
  const name = d && typeof d === 'object' ? d.name : d;
  return typeof name === 'string' && name !== '' ? name : path.basename(config.rootDir || '');
}

/**
 * Why this run did not run every test of every contract of the project, or '' when it did: a test
 * name filter, or a selection of files (path pattern, shard, changed files, failed files, related
 * files) that left out a contract file the project would otherwise run.
 */
function partialRun(g, context, ran) {
  if (g.testNamePattern) return `-t ${JSON.stringify(String(g.testNamePattern))}`;
  const tp = g.testPathPatterns;
  const patterns = Array.isArray(tp) ? tp : tp && Array.isArray(tp.patterns) ? tp.patterns : [];
  const selections = [
    [patterns.length > 0 || (typeof g.testPathPattern === 'string' && g.testPathPattern !== ''), 'a test path pattern'],
    [Boolean(g.shard), g.shard ? `--shard=${g.shard.shardIndex}/${g.shard.shardCount}` : ''],
    [Boolean(g.onlyChanged || g.changedSince || g.lastCommit), 'only changed files'],
    [Boolean(g.onlyFailures), '--onlyFailures'],
    [Boolean(g.findRelatedTests), '--findRelatedTests'],
  ].filter(([on]) => on);
  if (selections.length === 0) return '';
  const left = contractFiles(context).filter((f) => !ran.has(f));
  if (left.length === 0) return '';
  return `${selections.map(([, what]) => what).join(', ')} left out ${left.length} contract file${left.length === 1 ? '' : 's'}`;
}

/** The contract files Jest's file map knows for a project and would run with no selection. */
function contractFiles(context) {
  if (!context || !context.hasteFS || typeof context.hasteFS.getAllFiles !== 'function') return [];
  const config = context.config;
  const ignored = (config.testPathIgnorePatterns || []).map((p) => new RegExp(p));
  const roots = config.roots || [config.rootDir];
  /** @type {(file: string) => boolean} */
  let matches = () => true;
  if (Array.isArray(config.testMatch) && config.testMatch.length > 0) {
    try {
      matches = createRequire(path.join(config.rootDir, 'package.json'))('jest-util').globsToMatcher(config.testMatch);
    } catch {
      matches = () => true;
    }
  }
  return context.hasteFS.getAllFiles().filter((f) => f.endsWith('.spec') && roots.some((r) => f.startsWith(r + path.sep)) && !ignored.some((re) => re.test(f)) && matches(f));
}

/** Whether Jest's watcher, in watch mode, would see `file` change (and start another run). */
function watcherSees(file, g, contexts) {
  if (!g.watch && !g.watchAll) return false;
  if (g.coverageDirectory && file.includes(g.coverageDirectory)) return false;
  return contexts.some(({ config }) => {
    const roots = config.roots || [config.rootDir];
    if (!roots.some((r) => file.startsWith(r + path.sep))) return false;
    const ignored = [...(config.modulePathIgnorePatterns || []), ...(config.watchPathIgnorePatterns || [])];
    return !ignored.some((p) => new RegExp(p).test(file));
  });
}

/**
 * One .spec file's results, filed under its Jest project (the coverage and the report reporters
 * both keep them so). The outline comes from the test runner (test-runner.js); a file that could
 * not run has none and is parsed later. The tests and exchanges are kept for the HTML report.
 */
function recordResult(projects, test, result) {
  if (!result.testFilePath.endsWith('.spec')) return;
  const config = (test && test.context && test.context.config) || null;
  if (!projects.has(config)) projects.set(config, new Map());
  const outcomes = (result.testResults || []).map((t) => ({ title: t.title, status: t.status }));
  projects.get(config).set(result.testFilePath, {
    outcomes,
    outline: result.accordOutline,
    tests: result.testResults || [],
    exchanges: result.accordExchanges,
    consumers: result.accordConsumers,
    skipped: result.accordSkipped,
  });
}

module.exports = AccordCoverageReporter;
module.exports.recordResult = recordResult;
module.exports.contractList = contractList;
module.exports.partialRun = partialRun;
module.exports.watcherSees = watcherSees;
