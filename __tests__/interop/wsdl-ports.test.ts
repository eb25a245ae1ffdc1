import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { PYTHON, testClients, withStacks } from './stacks';

/**
 * An ASMX-style WSDL offers HTTP GET and POST ports before its SOAP ports. A stub of it serves the
 * SOAP ports only, and its `?wsdl` advertises only those: zeep and suds, left to take the first
 * port they can use, call a SOAP port of the stub and get a typed answer.
 */
const WSDL = path.join(__dirname, '..', 'fixtures', 'wsdl', 'services', 'http-ports.wsdl');

withStacks(['zeep', 'suds'], "a stub's ?wsdl: clients take the first port it advertises", () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: [WSDL], port: 0, log: () => undefined });
  });
  afterAll(async () => {
    await stub?.close();
  });

  testClients(
    '%s, given no port, gets a typed answer',
    ['zeep', 'suds'].map((lib) => [lib, PYTHON, () => ['py_client.py', lib, `${stub.url}/orders.asmx?wsdl`, '7']]),
    60_000,
    /^ok /,
  );
});
