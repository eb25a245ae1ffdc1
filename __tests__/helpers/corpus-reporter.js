'use strict';
/**
 * One line beside Jest's summary when tests were skipped because ../shared is not beside the
 * clone (see corpus.ts): a skipped test's name is not shown in a run of many files, and a
 * skip nobody sees is how coverage gets lost. Plain JavaScript: Jest loads reporters untransformed.
 */
const SKIPPED = /^skipped: \.\.\/shared\/([\w-]+) not found: /;
/** The same for the interop suites (__tests__/interop/stacks.ts) when a SOAP stack is not installed. */
const SKIPPED_STACK = /^skipped: ([\w, -]+) not installed: /;

class CorpusReporter {
  onRunComplete(_contexts, results) {
    const suites = new Map();
    const stacks = new Map();
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        if (t.status !== 'pending') continue;
        const m = SKIPPED.exec(t.title);
        if (m) suites.set(m[1], (suites.get(m[1]) ?? new Set()).add(file.testFilePath));
        const s = SKIPPED_STACK.exec(t.title);
        if (s) for (const name of s[1].split(', ')) stacks.set(name, (stacks.get(name) ?? new Set()).add(file.testFilePath));
      }
    }
    if (stacks.size > 0) {
      const what = [...stacks].map(([name, files]) => `${name} (${files.size} suite${files.size === 1 ? '' : 's'})`).join(', ');
      process.stderr.write(
        `Interop tests skipped: not installed: ${what}. Install the Debian packages .ci/run installs to run them (CI requires them: ACCORD_REQUIRE_INTEROP=1).\n`,
      );
    }
    if (suites.size === 0) return;
    const what = [...suites].map(([name, files]) => `../shared/${name} not found (${files.size} suite${files.size === 1 ? '' : 's'})`).join(', ');
    process.stderr.write(
      `Corpus tests skipped: ${what}. The repository's fixtures ran; put the corpora beside the clone to run them too (CI requires them: ACCORD_REQUIRE_CORPUS=1).\n`,
    );
  }
}

module.exports = CorpusReporter;
