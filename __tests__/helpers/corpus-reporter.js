'use strict';
/**
 * One line beside Jest's summary when tests were skipped because ../shared is not beside the
 * clone (see corpus.ts): a skipped test's name is not shown in a run of many files, and a
 * skip nobody sees is how coverage gets lost. Plain JavaScript: Jest loads reporters untransformed.
 */
const SKIPPED = /^skipped: \.\.\/shared\/([\w-]+) not found: /;

class CorpusReporter {
  onRunComplete(_contexts, results) {
    const suites = new Map();
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        const m = SKIPPED.exec(t.title);
        if (m && t.status === 'pending') suites.set(m[1], (suites.get(m[1]) ?? new Set()).add(file.testFilePath));
      }
    }
    if (suites.size === 0) return;
    const what = [...suites].map(([name, files]) => `../shared/${name} not found (${files.size} suite${files.size === 1 ? '' : 's'})`).join(', ');
    process.stderr.write(
      `Corpus tests skipped: ${what}. The repository's fixtures ran; put the corpora beside the clone to run them too (CI requires them: ACCORD_REQUIRE_CORPUS=1).\n`,
    );
  }
}

module.exports = CorpusReporter;
