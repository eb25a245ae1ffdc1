import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { matchResponse } from '../../src/http/match-response';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES } from './fixtures';

/**
 * An element with a `default` may be sent empty: the empty element stands for
 * the default value (XSD 1.0 part 1, 3.3.4), and real servers send <retries/>
 * for it. Such text is `(T | empty)`; generation still writes a value of T.
 */
const WSDL = path.join(WSDL_FIXTURES, 'defaults', 'settings.wsdl');
const { text } = importWsdl(WSDL);
const contract = parseContract(text, 'settings.spec');
const [tc] = testCases(contract);

const envelope = (body: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><getSettings xmlns="urn:accord:defaults">${body}</getSettings></s:Body></s:Envelope>`;

test('an element with a default reads as its type or empty; a string already takes empty', () => {
  expect(text).toContain('<tns:pageSize>(int | empty)</tns:pageSize>');
  expect(text).toContain('<tns:level>(Level | empty)</tns:level>');
  expect(text).toContain('<tns:enabled>(boolean | empty)</tns:enabled>');
  expect(text).toContain('<tns:name>(string)</tns:name>');
});

test('the stub takes a request whose defaulted elements are empty, and still refuses a value of the wrong type', async () => {
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
  try {
    const post = (body: string) => fetch(`${stub.url}/settings`, { method: 'POST', headers: { 'content-type': 'text/xml', SOAPAction: 'urn:getSettings' }, body: envelope(body) });
    expect((await post('<pageSize/><level/>')).status).toBe(200);
    expect((await post('<pageSize>50</pageSize><level>high</level>')).status).toBe(200);
    const wrong = await post('<pageSize>many</pageSize><level/>');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toMatch(/pageSize/);
  } finally {
    await stub.close();
  }
});

test('a response with empty defaulted elements is accepted by the runner', () => {
  const body = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><getSettingsResponse xmlns="urn:accord:defaults"><retries/><enabled></enabled><name/></getSettingsResponse></s:Body></s:Envelope>`;
  expect(matchResponse(tc.scenario, { status: 200, headers: { 'content-type': 'text/xml' }, body })).toEqual([]);
  const wrong = body.replace('<retries/>', '<retries>often</retries>');
  expect(matchResponse(tc.scenario, { status: 200, headers: { 'content-type': 'text/xml' }, body: wrong })).not.toEqual([]);
});

test('generated requests and answers carry values, not empty elements', async () => {
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
  try {
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const r = await runCase(tc, { baseUrl: stub.url, seed });
      expect(r.request?.body).toMatch(/<tns:pageSize>-?\d+<\/tns:pageSize>/);
      expect(r.request?.body).toMatch(/<tns:level>(low|high)<\/tns:level>/);
      expect(r.response?.body).toMatch(/<tns:retries>-?\d+<\/tns:retries>/);
      expect(r.response?.body).toMatch(/<tns:enabled>(true|false)<\/tns:enabled>/);
    }
  } finally {
    await stub.close();
  }
});
