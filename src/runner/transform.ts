import { createHash } from 'node:crypto';
import { caseTitle, parseContractCached, testCases } from '../contract/load';
import { AccordError } from '../errors';
import { RUNTIME_GLOBAL } from './config';

/**
 * Turns a .spec file into a Jest test file. Each `test(...)` call is written on
 * the line of its scenario (or Examples row), so Jest's test locations,
 * vscode-jest and WebStorm point at the contract without a source map.
 */
export function transformSpec(source: string, file: string, runtimePath: string): string {
  const lines: string[] = [];
  const put = (line: number, code: string) => {
    while (lines.length < line) lines.push('');
    lines[line - 1] = lines[line - 1] ? `${lines[line - 1]} ${code}` : code;
  };
  const q = JSON.stringify;
  // The preset's environment has put the worker's runtime on the global; under another environment it is loaded here.
  put(1, `const __accord = globalThis[${q(RUNTIME_GLOBAL)}] ?? require(${q(runtimePath)}).createRuntime(globalThis); const __opened = __accord.open(${q(file)}, ${q(source)});`);
  let contract;
  try {
    contract = parseContractCached(source, file);
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    const line = e.location.line ?? 1;
    put(line, `test(${q(`contract ${file.split(/[\\/]/).pop()}`)}, __accord.contractFailure(__opened));`);
    return lines.join('\n') + '\n';
  }
  put(contract.line, `describe(${q(contract.name || 'contract')}, () => { afterAll(() => __accord.closeAgent());`);
  // Indented as the contract line is, so the column Jest records for the test (--testLocationInResults)
  // is that of the Scenario keyword or the Examples row's first `|`, inside the line.
  const sourceLines = source.split(/\r?\n/);
  const indent = (line: number) => /^\s*/.exec(sourceLines[line - 1] ?? '')![0].replace(/[^\t]/g, ' ');
  testCases(contract).forEach((tc, i) => {
    const line = tc.row?.line ?? tc.scenario.line;
    if (tc.notRun !== undefined) {
      put(line, `${indent(line)}test.skip(${q(caseTitle(tc))}, () => {});`);
      return;
    }
    put(line, `${indent(line)}test(${q(tc.name)}, __accord.body(__opened, ${i}), __accord.timeout());`);
  });
  // Negative tests (opt-in) are declared by the runtime, which knows the settings; the generated code is the same either way.
  put(lines.length + 1, '__accord.negativeTests(__opened); __accord.consumerTests(__opened); });');
  return lines.join('\n') + '\n';
}

export function cacheKey(source: string, file: string, configString: string, version: string): string {
  return createHash('sha256').update(source).update('\0').update(file).update('\0').update(configString).update('\0').update(version).digest('hex');
}
