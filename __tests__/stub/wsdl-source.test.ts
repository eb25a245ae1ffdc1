import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { wsdlFixture } from '../wsdl/fixtures';
import { post, runCli, startStubProcess } from './helpers';

/** `accord stub service.wsdl`: a WSDL is served as the contract its import would write. */
const GREETER = wsdlFixture('rpc-literal/greeter.wsdl');

describe('a WSDL as a stub source', () => {
  it('answers every test case of the imported contract (library)', async () => {
    const stub = await startStub({ contracts: [GREETER] });
    try {
      // Every SOAP port is served: the WSDL's second port at its own path too.
      expect(stub.served.map((s) => s.name)).toEqual([
        'sayHi',
        'greetMe',
        'sendData',
        'sendData fault failure',
        'traced',
        'sayHi at /rpclit/backup',
        'greetMe at /rpclit/backup',
        'sendData at /rpclit/backup',
        'sendData at /rpclit/backup fault failure',
        'traced at /rpclit/backup',
      ]);
      const contract = parseContract(importWsdl(GREETER).text, 'greeter.spec');
      const failures: string[] = [];
      // The fault scenario has no Examples row: declared, not run, as the runner does.
      for (const tc of testCases(contract).filter((t) => t.notRun === undefined)) {
        const r = await runCase(tc, { baseUrl: stub.url, seed: 3 });
        if (!r.passed) failures.push(formatCaseReport(r, stub.url));
      }
      expect(failures).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('the CLI serves it and explains a request that matches nothing', async () => {
    const proc = await startStubProcess([GREETER, '--port', '0']);
    try {
      expect(proc.stdout()).toMatch(/POST \/rpclit\/greeter -> 200 {2}"sendData"/);
      const r = await post(
        `${proc.url}/rpclit/greeter`,
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><g:sendData xmlns:g="urn:accord:rpclit"><in><g:count>one</g:count><g:label>l</g:label><g:items>i</g:items></in><when>2024-02-29T10:00:00Z</when></g:sendData></soap:Body></soap:Envelope>',
        {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: '"urn:accord:rpclit:sendData"',
        },
      );
      expect(r.status).toBe(400);
      expect(r.body).toContain('REQUEST.BODY Envelope/Body/sendData/in/count: expected an integer from -32768 to 32767, found "one"');
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });

  it("a WSDL that cannot be imported stops the stub with the importer's message (exit 2)", async () => {
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
