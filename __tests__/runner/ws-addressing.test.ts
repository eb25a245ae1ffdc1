import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { runCase } from '../../src/runner/run-case';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { startServer, type Received, type Running } from '../helpers/servers';
import { WSA, writeAddressingWsdl, zeepWithAddressing } from '../helpers/ws-addressing';
import { hasStack } from '../interop/stacks';

/**
 * WS-Addressing: a WSDL with wsaw:UsingAddressing imports as a contract tagged @ws-addressing;
 * the runner then writes Action, MessageID, To and ReplyTo, the stub answers with RelatesTo (the
 * request's MessageID) and the reply's Action, and the runner checks RelatesTo. zeep's
 * WsAddressingPlugin, an independent client, gets its MessageID back from the stub.
 */
const REPO = path.join(__dirname, '..', '..');
let dir: string;
let wsdl: string;
let stub: RunningStub;
let forgetful: Running;
const received: Received[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-wsa-'));
  wsdl = path.join(dir, 'petstore.wsdl');
  writeAddressingWsdl(wsdl);
  stub = await startStub({ contracts: [wsdl], log: () => {} });
  forgetful = await startServer((req) => {
    received.push(req);
    return {
      body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><tns:getPetResponse xmlns:tns="http://example.com/petstore"><tns:id>1</tns:id><tns:name>a</tns:name><tns:type>b</tns:type><tns:status>c</tns:status></tns:getPetResponse></s:Body></s:Envelope>',
    };
  });
});
afterAll(async () => {
  await Promise.all([stub?.close(), forgetful?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const contract = () => parseContract(importWsdl(wsdl).text, 'petstore.spec');

it('the importer tags the contract; the runner writes the headers and checks the stub relates its answer', async () => {
  const c = contract();
  expect(c.scenarios[0].tags).toContain('@ws-addressing');
  const [tc] = testCases(c);
  const r = await runCase(tc, { baseUrl: stub.url });
  expect(r.mismatches).toEqual([]);
  expect(r.passed).toBe(true);
  const sent = r.request!.body;
  const id = /<wsa:MessageID xmlns:wsa="[^"]+">(urn:uuid:[0-9a-f-]+)<\/wsa:MessageID>/.exec(sent)?.[1];
  expect(id).toBeDefined();
  expect(sent).toContain(`<wsa:Action xmlns:wsa="${WSA}">http://example.com/petstore/getPet</wsa:Action>`);
  expect(sent).toContain(`<wsa:To xmlns:wsa="${WSA}">${stub.url}/ws</wsa:To>`);
  expect(sent).toContain(`<wsa:ReplyTo xmlns:wsa="${WSA}"><wsa:Address>${WSA}/anonymous</wsa:Address></wsa:ReplyTo>`);
  expect(r.response!.body).toContain(`<wsa:RelatesTo xmlns:wsa="${WSA}">${id}</wsa:RelatesTo>`);
  expect(r.response!.body).toContain(`<wsa:Action xmlns:wsa="${WSA}">http://example.com/petstore/PetPortType/getPetResponse</wsa:Action>`);
});

it('a provider that does not say which request it answers fails the case', async () => {
  const [tc] = testCases(contract());
  const r = await runCase(tc, { baseUrl: forgetful.url });
  expect(r.passed).toBe(false);
  expect(r.mismatches).toEqual([
    {
      path: 'RESPONSE.BODY/Envelope/Header/RelatesTo',
      expected: expect.stringMatching(/^wsa:RelatesTo urn:uuid:.* \(the request's wsa:MessageID\)$/),
      actual: 'no wsa:RelatesTo header',
    },
  ]);
  expect(received.at(-1)!.body).toContain('<wsa:MessageID');
});

it('the configuration turns it on for a contract without the tag', async () => {
  const [tc] = testCases(parseContract(importWsdl(path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl')).text, 'plain.spec'));
  expect(tc.scenario.tags).not.toContain('@ws-addressing');
  const plain = await runCase(tc, { baseUrl: forgetful.url });
  expect(plain.passed).toBe(true);
  expect(received.at(-1)!.body).not.toContain(WSA);
  const on = await runCase(tc, { baseUrl: forgetful.url, ws: { addressing: true, mtom: false } });
  expect(on.passed).toBe(false);
  expect(received.at(-1)!.body).toContain('<wsa:MessageID');
});

const zeep = hasStack('zeep');
(zeep ? it : it.skip)(zeep ? "zeep's WsAddressingPlugin gets its MessageID back in RelatesTo" : 'skipped: python3-zeep not installed', async () => {
  const out = await zeepWithAddressing(dir, `${stub.url}/ws?wsdl`, 7);
  const sent = /^SENT (\S+)$/m.exec(out)?.[1];
  expect(sent).toBeDefined();
  expect(out).toContain(`RELATES ${sent}`);
});
