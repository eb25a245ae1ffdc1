import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runImportSoapui, type SoapuiCounts } from '../../src/cli/commands/import-soapui';
import { soapuiCorpus, withCorpus } from '../helpers/corpus';

/**
 * Every project of ../shared/soapui-corpus (20 real SoapUI and ReadyAPI projects, 4 of them composite
 * folders) imports: a contract from its cached WSDLs, example files that fit it, and a line for each
 * thing not carried over. The counts are printed, one line a project.
 */
jest.setTimeout(300_000);

withCorpus('soapui-corpus', 'accord import soapui reads every project of ../shared/soapui-corpus', () => {
  const counts = new Map<string, SoapuiCounts>();
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(path.join(tmpdir(), 'accord-soapui-corpus-'));
  });
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    const rows = [...counts].map(
      ([n, c]) => `${n}: ${c.operations} operations, ${c.contracts} contracts, ${c.examples} examples, ${c.fit} fit, ${c.misfits} do not, ${c.notCarried} not carried`,
    );
    const sum = (k: keyof SoapuiCounts) => [...counts.values()].reduce((a, c) => a + c[k], 0);
    console.log(`${rows.join('\n')}\nall: ${sum('operations')} operations, ${sum('examples')} examples, ${sum('fit')} fit, ${sum('notCarried')} not carried`);
  });

  test('the index lists 20 projects', () => {
    expect(soapuiCorpus()).toHaveLength(20);
  });

  test.each(soapuiCorpus().map((e) => [e.name, e.input]))('%s imports', (name, input) => {
    const lines: string[] = [];
    const dir = path.join(out, name);
    const c = runImportSoapui(input, { output: dir }, { cwd: out, stdout: (s) => lines.push(s), stderr: (s) => lines.push(s) });
    counts.set(name, c);
    expect(c.contracts).toBeGreaterThan(0);
    expect(c.operations).toBeGreaterThan(0);
    expect(c.fit + c.misfits).toBe(c.examples);
    // Each example written is a file beside its contract; each thing not carried is one line.
    const written = readdirSync(dir)
      .filter((f) => f.endsWith('_examples'))
      .reduce((n, f) => n + readdirSync(path.join(dir, f)).length, 0);
    expect(written).toBe(c.fit);
    expect(
      lines
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('not carried: ')),
    ).toHaveLength(c.notCarried);
  });

  test('a composite project reads as its single-file version does (SmartBear sample: 4 operations, the same mock responses)', () => {
    const single = counts.get('smartbear-sample-soap');
    const composite = counts.get('kminski-soap-sample-composite');
    expect(single?.operations).toBe(4);
    expect(composite?.operations).toBe(4);
    expect(composite!.fit).toBeGreaterThan(0);
  });
});
