import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';

/**
 * What an expectation does not give is not constrained beyond the contract: a body that leaves
 * out an empty SOAP Header or an optional element still fires for requests that carry them (suds
 * always sends an empty Header; most clients send optional elements), and an expectation on a
 * SOAP operation need not repeat the SOAPAction header, the body names the operation. What it
 * gives must be there.
 */
const SPEC = path.join(__dirname, '..', 'fixtures', 'wsdl', 'features', 'features.spec');
const ENV = 'xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:f="urn:accord:features:types"';
const ACTION = { soapaction: '"urn:accord:features:getPerson"', 'content-type': 'text/xml; charset=utf-8' };
const ANSWER = `<s:Envelope ${ENV}><s:Body><f:getPersonResponse><f:person id="1" created="2024-01-01T00:00:00Z"><f:first>Ada</f:first><f:last>L</f:last><f:email>a@b.c</f:email><f:nickname>ada</f:nickname><f:salary>1.5</f:salary></f:person></f:getPersonResponse></s:Body></s:Envelope>`;

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [SPEC], port: 0, log: () => undefined });
  // No Header, no optional status, no SOAPAction.
  await stub.expect({
    request: { method: 'POST', path: '/services/features', body: `<s:Envelope ${ENV}><s:Body><f:getPerson><f:id>7</f:id></f:getPerson></s:Body></s:Envelope>` },
    response: { status: 200, body: ANSWER },
  });
  // One that names an optional element: it must be there.
  await stub.expect({
    request: {
      method: 'POST',
      path: '/services/features',
      body: `<s:Envelope ${ENV}><s:Body><f:getPerson><f:id>8</f:id><f:status>retired</f:status></f:getPerson></s:Body></s:Envelope>`,
    },
    response: { status: 200, body: ANSWER.replace('Ada', 'Retired') },
  });
});
afterAll(() => stub.close());

async function ask(body: string, headers: Record<string, string> = ACTION): Promise<string> {
  const r = await fetch(`${stub.url}/services/features`, { method: 'POST', headers, body });
  return `${r.status} ${await r.text()}`;
}

test('it fires for a request with an empty Header and an optional element it left out', async () => {
  expect(await ask(`<s:Envelope ${ENV}><s:Header/><s:Body><f:getPerson><f:id>7</f:id><f:status>active</f:status></f:getPerson></s:Body></s:Envelope>`)).toBe(`200 ${ANSWER}`);
  expect(await ask(`<s:Envelope ${ENV}><s:Body><f:getPerson><f:id>7</f:id></f:getPerson></s:Body></s:Envelope>`)).toBe(`200 ${ANSWER}`);
});

test('it does not fire for other values, nor without a node it names', async () => {
  expect(await ask(`<s:Envelope ${ENV}><s:Header/><s:Body><f:getPerson><f:id>9</f:id></f:getPerson></s:Body></s:Envelope>`)).not.toContain('Ada');
  expect(await ask(`<s:Envelope ${ENV}><s:Body><f:getPerson><f:id>8</f:id></f:getPerson></s:Body></s:Envelope>`)).not.toContain('Retired');
  expect(await ask(`<s:Envelope ${ENV}><s:Header/><s:Body><f:getPerson><f:id>8</f:id><f:status>retired</f:status></f:getPerson></s:Body></s:Envelope>`)).toContain('Retired');
});

test('the contract still holds: a request without the SOAPAction the contract requires gets no answer from it', async () => {
  expect(await ask(`<s:Envelope ${ENV}><s:Body><f:getPerson><f:id>7</f:id></f:getPerson></s:Body></s:Envelope>`, { 'content-type': 'text/xml' })).toMatch(/^400 /);
});
