import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { post, runCli, startStubProcess } from './helpers';

/** `accord stub service.wsdl`: a WSDL is served as the contract its import would write. */
const CORPUS = path.join(__dirname, '..', '..', '..', 'shared', 'wsdl-corpus');
const CALCULATOR = path.join(CORPUS, 'asmx-calculator', 'calculator-soap11and12.wsdl');

describe('a WSDL as a stub source', () => {
  it('answers every test case of the imported contract (library)', async () => {
    const stub = await startStub({ contracts: [CALCULATOR] });
    try {
      expect(stub.served.map((s) => s.name)).toEqual(['Add', 'Subtract', 'Multiply', 'Divide']);
      const contract = parseContract(importWsdl(CALCULATOR).text, 'calculator.spec');
      const failures: string[] = [];
      for (const tc of testCases(contract)) {
        const r = await runCase(tc, { baseUrl: stub.url, seed: 3 });
        if (!r.passed) failures.push(formatCaseReport(r, stub.url));
      }
      expect(failures).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('the CLI serves it and explains a request that matches nothing', async () => {
    const proc = await startStubProcess([CALCULATOR, '--port', '0']);
    try {
      expect(proc.stdout()).toMatch(/POST \/calculator\.asmx -> 200 {2}"Add"/);
      const r = await post(`${proc.url}/calculator.asmx`, '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Add xmlns="http://tempuri.org/"><intA>one</intA><intB>2</intB></Add></soap:Body></soap:Envelope>', {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: '"http://tempuri.org/Add"',
      });
      expect(r.status).toBe(400);
      expect(r.body).toContain('REQUEST.BODY Envelope/Body/Add/intA: expected a number, found "one"');
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });

  it('a WSDL that cannot be imported stops the stub with the importer\'s message (exit 2)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-wsdl-src-'));
    try {
      writeFileSync(path.join(dir, 'broken.wsdl'), '<definitions><oops></definitions>');
      const r = await runCli(['stub', path.join(dir, 'broken.wsdl')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/broken\.wsdl/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
