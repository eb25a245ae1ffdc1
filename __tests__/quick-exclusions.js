// @ts-check
'use strict';
/**
 * The test files `npm run test:quick` (jest.quick.config.js) leaves to `npm test`, each with its
 * class and why. `npm test` and CI (.ci/run) run every file; test:quick is the loop a contributor
 * runs after each change, under a minute on 2 cores. __tests__/quick-suite.test.ts keeps this list
 * honest: every file named here exists, and every file of the first four classes (found from its
 * source: it starts Jest in a child, drives a browser, needs a SOAP stack, or watches files) is named here.
 *
 * Classes:
 * - jest-in-jest: starts Jest (or `accord test`, which is Jest) in a child process: seconds per run.
 * - browser: drives chromium (the HTML report).
 * - interop: runs real SOAP stacks (Python, PHP, Perl, Java), each a process that takes seconds to start.
 * - watch: waits for file watchers and for nothing more to happen.
 * - exhaustive: loops over every model, seed, mutant, variant or corpus file; minutes of CPU.
 * - slow: measured slowest of the rest (real git repositories, child processes, byte and flood limits).
 *
 * @type {{ file: string; class: 'jest-in-jest' | 'browser' | 'interop' | 'watch' | 'exhaustive' | 'slow'; why: string }[]}
 */
const EXCLUDED = [
  // Jest in a child process.
  { file: 'logs/recorded-faults.test.ts', class: 'jest-in-jest', why: '`accord test` of a recording against a service' },
  { file: 'shared/specmatic.test.ts', class: 'jest-in-jest', why: 'the preset and `accord test` in repositories with Specmatic settings' },
  { file: 'wsdl/soap-headers-required.test.ts', class: 'jest-in-jest', why: '`accord test` sends the required header to a real server' },
  { file: 'interop/axis.test.ts', class: 'interop', why: 'Apache Axis 1.4 (Java) server and client' },
  { file: 'interop/export-wsdl.test.ts', class: 'interop', why: 'zeep, suds, PHP and wsimport against an exported WSDL' },
  { file: 'interop/gsoap.test.ts', class: 'interop', why: 'gSOAP server and client built with g++' },
  { file: 'interop/mono.test.ts', class: 'interop', why: 'Mono ASMX service and a wsdl-generated client' },
  { file: 'cli/accord-test.test.ts', class: 'jest-in-jest', why: '`accord test` runs Jest' },
  { file: 'cli/accord-test-packed.test.ts', class: 'jest-in-jest', why: 'npm pack, a fresh install, then `accord test`' },
  { file: 'proxy/proxy.test.ts', class: 'jest-in-jest', why: 'runs the recorded contracts with Jest' },
  { file: 'report/reporter.test.ts', class: 'jest-in-jest', why: 'the report reporter inside real Jest runs' },
  { file: 'runner/auth.test.ts', class: 'jest-in-jest', why: 'one Jest run per auth scheme' },
  { file: 'runner/consumer-kinds.test.ts', class: 'jest-in-jest', why: 'replays consumer examples through Jest' },
  { file: 'runner/consumer-replay.test.ts', class: 'jest-in-jest', why: 'replays consumer examples through Jest' },
  { file: 'runner/coverage.test.ts', class: 'jest-in-jest', why: 'the coverage reporter inside real Jest runs' },
  { file: 'runner/echo.test.ts', class: 'jest-in-jest', why: 'Jest runs with echo on' },
  { file: 'runner/jest-preset.test.ts', class: 'jest-in-jest', why: 'the preset, run by Jest on temp projects' },
  { file: 'runner/jest29.test.ts', class: 'jest-in-jest', why: 'the preset under Jest 29' },
  { file: 'runner/negative-opt-out.test.ts', class: 'jest-in-jest', why: 'negative tests in Jest runs' },
  { file: 'runner/negative.test.ts', class: 'jest-in-jest', why: 'negative tests in Jest runs' },
  { file: 'runner/projects.test.ts', class: 'jest-in-jest', why: "Jest's projects option" },
  { file: 'runner/redact-sinks.test.ts', class: 'jest-in-jest', why: "what Jest's output and reporters show of secrets" },
  { file: 'runner/replay-origin.test.ts', class: 'jest-in-jest', why: 'replayed examples in Jest runs' },
  { file: 'runner/row-values.test.ts', class: 'jest-in-jest', why: 'Examples rows in Jest runs' },
  { file: 'runner/states.test.ts', class: 'jest-in-jest', why: 'a states module in Jest runs' },
  { file: 'runner/ws-security.test.ts', class: 'jest-in-jest', why: 'WS-Security in Jest runs' },
  { file: 'security/ci-commands.test.ts', class: 'jest-in-jest', why: "the CI commands' Jest runs" },
  { file: 'shared/pull.test.ts', class: 'jest-in-jest', why: 'pulled contracts run by Jest' },
  { file: 'stub/agreement.test.ts', class: 'jest-in-jest', why: 'the stub and the tests agree: Jest against the stub' },
  { file: 'stub/scope-parallel.test.ts', class: 'jest-in-jest', why: 'parallel Jest workers on one stub' },
  { file: 'stub/state-parallel.test.ts', class: 'jest-in-jest', why: 'parallel Jest workers on one stub' },
  { file: 'wsdl/faults-real.test.ts', class: 'jest-in-jest', why: 'imported WSDL faults run by Jest' },
  { file: 'wsdl/jest-roundtrip.test.ts', class: 'jest-in-jest', why: 'imported WSDLs run by Jest against the stub' },
  // A browser.
  { file: 'report/browser.test.ts', class: 'browser', why: 'the HTML report in chromium' },
  { file: 'report/partial-wsdl.test.ts', class: 'browser', why: 'the HTML report in chromium' },
  { file: 'shared/consumer-loop.test.ts', class: 'browser', why: 'the whole loop, report in chromium included' },
  // Real SOAP stacks.
  { file: 'interop/jaxws-url.test.ts', class: 'interop', why: 'JAX-WS (Java)' },
  { file: 'interop/jaxws.test.ts', class: 'interop', why: 'JAX-WS (Java)' },
  { file: 'interop/php.test.ts', class: 'interop', why: "PHP's SoapClient and SoapServer" },
  { file: 'interop/recording.test.ts', class: 'interop', why: 'recordings of real stacks' },
  { file: 'interop/spyne.test.ts', class: 'interop', why: 'spyne (Python)' },
  { file: 'interop/wsdl-ports.test.ts', class: 'interop', why: 'the stacks on WSDL ports' },
  { file: 'proxy/proxy-stacks.test.ts', class: 'interop', why: 'the proxy between real stacks' },
  { file: 'runner/ws-addressing.test.ts', class: 'interop', why: 'zeep with WS-Addressing' },
  { file: 'shared/loop-e2e.test.ts', class: 'interop', why: 'the loop end to end, with stacks and Jest' },
  { file: 'stub/client-certificates.test.ts', class: 'interop', why: 'zeep with client certificates' },
  { file: 'stub/response-template.test.ts', class: 'interop', why: 'templated answers to real stacks' },
  { file: 'stub/ws-addressing-actions.test.ts', class: 'interop', why: 'zeep with WS-Addressing actions' },
  // File watchers.
  { file: 'runner/watch.test.ts', class: 'watch', why: '`jest --watchAll`, and 5 s with nothing more after each run' },
  // Exhaustive depth.
  { file: 'pattern/content-automaton.test.ts', class: 'exhaustive', why: 'every small content model on every word up to length 5 (~80 s)' },
  { file: 'fuzz/cli.test.ts', class: 'exhaustive', why: 'seeded fuzzing of the CLI' },
  { file: 'fuzz/proxy.test.ts', class: 'exhaustive', why: 'seeded fuzzing of the proxy' },
  { file: 'stub/shape-corpus.test.ts', class: 'exhaustive', why: 'the request-shape choice against a full match on thousands of corpus requests (~7 s)' },
  { file: 'fuzz/stub.test.ts', class: 'exhaustive', why: 'seeded fuzzing of the stub' },
  { file: 'fuzz/ws-security.test.ts', class: 'exhaustive', why: 'seeded fuzzing of WS-Security' },
  // Measured slowest of the rest (a run of test:quick before they were named here: each took 40-390 s on a loaded 2-core machine, together two thirds of its time).
  { file: 'wsdl/accept-variants.test.ts', class: 'exhaustive', why: 'every variant of every recorded response xmllint finds valid' },
  { file: 'wsdl/xsd-validity.test.ts', class: 'exhaustive', why: 'every generated message validated by xmllint' },
  { file: 'contract/print-roundtrip.test.ts', class: 'exhaustive', why: 'parse, print, parse on every contract there is' },
  { file: 'security/regex-audit.test.ts', class: 'exhaustive', why: 'every regular expression of src/, its language analysed (also run before every stop: npx jest it)' },
  { file: 'stub/body-index-same-answer.test.ts', class: 'exhaustive', why: 'every request generated from the contracts, the WSDLs and the corpus, and mutants, indexed and not' },
  { file: 'stub/prefilter.test.ts', class: 'exhaustive', why: 'every generated request and mutant, prefilter against the full matcher' },
  { file: 'wsdl/mutations.test.ts', class: 'exhaustive', why: 'seeded mutants of every WSDL' },
  { file: 'compat/mutations.test.ts', class: 'exhaustive', why: 'seeded mutants of contracts, compared' },
  { file: 'contract/mutations.test.ts', class: 'exhaustive', why: 'seeded mutants of contracts, parsed' },
  { file: 'logs/mutations.test.ts', class: 'exhaustive', why: 'seeded mutants of logs' },
  { file: 'compat/overlap.test.ts', class: 'exhaustive', why: 'every pair of overlapping scenarios of the fixtures and corpus' },
  { file: 'wsdl/soap-rules.test.ts', class: 'exhaustive', why: "every generated message against SOAP's and the WSDL's rules, corpus included" },
  { file: 'wsdl/corpus.test.ts', class: 'exhaustive', why: 'every WSDL of the corpus imported' },
  { file: 'compat/corpus.test.ts', class: 'exhaustive', why: 'every contract of the corpus compared' },
  { file: 'xml/fast-parse.test.ts', class: 'exhaustive', why: 'mutated documents, the fast parser against saxes' },
  { file: 'stub/repeat.test.ts', class: 'exhaustive', why: 'seeded random scripts against a verbose stub' },
  // Measured in test:quick on 2 idle cores (session 13: 78 s wall with them, each 3-9 s of a worker).
  { file: 'soapui/corpus.test.ts', class: 'exhaustive', why: 'every project of ../shared/soapui-corpus imported (8.5 s)' },
  { file: 'wsdl/import-url.test.ts', class: 'slow', why: 'WSDLs fetched from real servers, slow and hostile ones among them (6.8 s)' },
  { file: 'proxy/proxy-bounds.test.ts', class: 'slow', why: 'bodies and floods at the limits of the proxy (5.7 s)' },
  { file: 'http/tls-errors.test.ts', class: 'slow', why: 'a TLS server per broken certificate (4.9 s)' },
  { file: 'logs/cli.test.ts', class: 'slow', why: 'the built command on large logs (3.8 s)' },
  { file: 'compat/compare.test.ts', class: 'slow', why: 'every comparison rule over generated pairs (3.7 s)' },
  { file: 'stub/pass-through.test.ts', class: 'slow', why: 'a real slow upstream service and its timeouts (3.5 s)' },
  { file: 'logs/fast-paths.test.ts', class: 'slow', why: 'fast and slow paths compared on large logs (3.4 s)' },
  { file: 'validate/cli.test.ts', class: 'slow', why: 'the built command per case (3.3 s)' },
  { file: 'http/read-body.test.ts', class: 'slow', why: 'uploads past the limit, drained and destroyed (3.2 s)' },
  { file: 'proxy/check.test.ts', class: 'slow', why: 'the checking proxy against real services (3.2 s)' },
  { file: 'docs/snippets.test.ts', class: 'slow', why: 'every README and docs command run in a workspace (also run before every stop: npx jest __tests__/docs)' },
  { file: 'stub/ws-security-attacks.test.ts', class: 'slow', why: 'real signatures of 1 MB, each hostile shape timed' },
  { file: 'stub/scope.test.ts', class: 'slow', why: 'scopes through real stubs and child processes' },
  { file: 'stub/wsdl-source.test.ts', class: 'slow', why: 'stubs of WSDLs started as commands' },
  { file: 'shared/publish-names.test.ts', class: 'slow', why: 'real git repositories' },
  { file: 'compat/wsdl-git.test.ts', class: 'slow', why: 'real git repositories and commits through the built CLI' },
  { file: 'compat/cli-git.test.ts', class: 'slow', why: 'real git repositories and commits through the built CLI' },
  { file: 'compat/ci-formats.test.ts', class: 'slow', why: 'real git repositories and commits through the built CLI' },
  { file: 'compat/git-links.test.ts', class: 'slow', why: 'real git repositories with symlinks and refs' },
  { file: 'shared/pull-hostile.test.ts', class: 'slow', why: 'real git repositories set up hostile' },
  { file: 'stub/expectation-bytes.test.ts', class: 'slow', why: 'expectations of megabytes, up to the byte limits' },
  { file: 'stub/scope-bounds.test.ts', class: 'slow', why: 'floods of scopes and named state' },
  { file: 'files/read.test.ts', class: 'slow', why: 'real FIFOs, devices and large files' },
  { file: 'logs/bad-input.test.ts', class: 'slow', why: 'every bad input through the built CLI' },
];

module.exports = { EXCLUDED };
