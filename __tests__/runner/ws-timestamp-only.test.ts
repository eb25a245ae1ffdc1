import { parseContract, testCases } from '../../src/contract/load';
import { runCase } from '../../src/runner/run-case';
import { startServer, type Received, type Running } from '../helpers/servers';

/**
 * A contract that asks for a WS-Security Timestamp only needs no settings: the runner writes the
 * Timestamp (Created, Expires 300 s later) and asks for no username or password. One that asks
 * for a UsernameToken still fails saying what to set.
 */
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const contract = (tags: string) => `${tags}
Feature: Pets

  Scenario: getPet
    When POST /ws
    And request-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header/>
      <soapenv:Body><getPet><id>(number)</id></getPet></soapenv:Body>
    </soapenv:Envelope>
    """
    Then status 200
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body><getPetResponse><ok>(boolean)</ok></getPetResponse></soapenv:Body>
    </soapenv:Envelope>
    """
`;

let server: Running;
const received: Received[] = [];
beforeAll(async () => {
  server = await startServer((req) => {
    received.push(req);
    return {
      body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><getPetResponse><ok>true</ok></getPetResponse></soapenv:Body></soapenv:Envelope>',
    };
  });
});
afterAll(() => server.close());

test('@ws-security:Timestamp without wsSecurity settings: a Timestamp is sent, the case passes', async () => {
  const [tc] = testCases(parseContract(contract('@ws-security:Timestamp'), 'pets.spec'));
  const r = await runCase(tc!, { baseUrl: server.url });
  expect(r.mismatches).toEqual([]);
  expect(r.passed).toBe(true);
  const body = received.at(-1)!.body;
  const created = new RegExp(`<wsu:Created>([^<]+)</wsu:Created>`).exec(body)?.[1];
  const expires = new RegExp(`<wsu:Expires>([^<]+)</wsu:Expires>`).exec(body)?.[1];
  expect(body).toContain(WSU);
  expect(Date.parse(expires!) - Date.parse(created!)).toBe(300_000);
  expect(body).not.toContain('UsernameToken');
});

test('@ws-security:UsernameToken without settings still fails, naming what to set', async () => {
  const [tc] = testCases(parseContract(contract('@ws-security:UsernameToken @ws-security:Timestamp'), 'pets.spec'));
  const r = await runCase(tc!, { baseUrl: server.url }).catch((e: Error) => ({ error: e.message }));
  expect(JSON.stringify(r)).toContain('the contract asks for WS-Security (UsernameToken, Timestamp): set testEnvironmentOptions.accord.wsSecurity');
});
