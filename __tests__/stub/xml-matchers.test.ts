import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accordMatchers, connectStub, startStub, type RunningStub } from '../../src/stub';
import { PET_SPEC, petRequest, post } from './helpers';

/**
 * Verifying what a consumer sent by the XML it holds, not by its spelling (issue 23, point 5):
 * `nodes` and `xmlIncludes` are prefix- and namespace-blind, as all of accord's matching is, and a
 * failing toHaveReceived shows each request's body and the values of the nodes asked for.
 */
expect.extend(accordMatchers);
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: [PET_SPEC], log: () => {} });
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

describe('selecting requests by XML node', () => {
  it('nodes: by path of local names, whatever the prefixes (bodyIncludes is the text as written)', async () => {
    await post(`${stub.url}/ws`, petRequest('9', 'soap', 'p'));
    await post(`${stub.url}/ws`, petRequest('8'));
    expect(stub.calls({ bodyIncludes: '<pet:id>9</pet:id>' })).toHaveLength(0);
    expect(stub.calls({ nodes: { 'getPetRequest/id': '9' } }).map((c) => c.seq)).toEqual([1]);
    expect(stub.calls({ nodes: { 'getPetRequest/id': 8 } }).map((c) => c.seq)).toEqual([2]);
    expect(stub.calls({ nodes: { '/Envelope/Body/getPetRequest/id': '9' } }).map((c) => c.seq)).toEqual([1]);
    expect(stub.calls({ nodes: { id: '9' } }).map((c) => c.seq)).toEqual([1]);
    expect(stub.calls({ nodes: { '/getPetRequest/id': '9' } })).toEqual([]);
    expect(stub.calls({ nodes: { 'getPetRequest/id': '7' } })).toEqual([]);
    expect(stub).toHaveReceived({ path: '/ws', nodes: { 'getPetRequest/id': '9' } }, 1);
  });

  it('xmlIncludes: a fragment of the contract body, its elements present with their text; (number) matches any number', async () => {
    await post(`${stub.url}/ws`, petRequest('9', 'S', 'x'));
    expect(stub).toHaveReceived({ xmlIncludes: '<pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>9</pet:id></pet:getPetRequest>' });
    expect(stub).toHaveReceived({ xmlIncludes: '<getPetRequest><id>(number)</id></getPetRequest>' });
    expect(stub).toHaveReceived({ xmlIncludes: '<Body><getPetRequest/></Body>' });
    expect(stub).not.toHaveReceived({ xmlIncludes: '<getPetRequest><id>8</id></getPetRequest>' });
    expect(stub).not.toHaveReceived({ xmlIncludes: '<getPetRequest><name>(string)</name></getPetRequest>' });
    expect(stub).not.toHaveReceived({ xmlIncludes: 'not xml <' });
  });
});

describe('a failing toHaveReceived shows what arrived', () => {
  it('each request with the start of its body and the values of the nodes asked for', async () => {
    await post(`${stub.url}/ws`, petRequest('8'));
    let message = '';
    try {
      expect(stub).toHaveReceived({ nodes: { 'getPetRequest/id': '9' } });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('it received 0.');
    expect(message).toContain('  POST /ws -> 200 by scenario "Get a pet by id"\n      getPetRequest/id: "8"\n      body: <soapenv:Envelope xmlns:soapenv=');
    expect(message).toContain('<pet:id>8</pet:id>');
  });

  it('a body is shown cut short and printable', async () => {
    await post(`${stub.url}/ws`, petRequest(`8\u001b[2J${'x'.repeat(1000)}`));
    let message = '';
    try {
      expect(stub).toHaveReceived({ path: '/nowhere' });
    } catch (e) {
      message = (e as Error).message;
    }
    const body = message.split('\n').find((l) => l.startsWith('      body: '))!;
    expect(body).toContain('\\x1b[2J');
    expect(body).not.toContain('\u001b');
    expect(body).toMatch(/… \(\d+ more characters\)$/);
  });
});

describe('over HTTP (connectStub)', () => {
  it('the XML filters work on a StubClient too', async () => {
    const client = connectStub(stub.url);
    await post(`${stub.url}/ws`, petRequest('9', 'e', 'q'));
    expect(await client.calls({ path: '/ws', nodes: { 'getPetRequest/id': '9' } })).toHaveLength(1);
    expect(await client.calls({ nodes: { 'getPetRequest/id': '10' } })).toHaveLength(0);
    await expect(client).toHaveReceived({ xmlIncludes: '<getPetRequest><id>9</id></getPetRequest>' }, 1);
    await expect(expect(client).toHaveReceived({ nodes: { 'getPetRequest/id': '1' } })).rejects.toThrow(/getPetRequest\/id: "9"/);
  });
});

describe('a contract without a SOAP Header (as `accord proxy` records one from calls without it)', () => {
  it('answers a client that writes an empty Header (suds, SOAP::Lite) or adds WS-Addressing blocks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-headerless-'));
    const spec = path.join(dir, 'pet.spec');
    writeFileSync(spec, readFileSync(PET_SPEC, 'utf8').replaceAll('<soapenv:Header/>', ''));
    const headerless = await startStub({ contracts: [spec], log: () => {} });
    try {
      const plain = petRequest('4');
      expect(plain).toContain('<soapenv:Header/>');
      expect((await post(`${headerless.url}/ws`, plain)).status).toBe(200);
      const addressed = plain.replace('<soapenv:Header/>', '<soapenv:Header><a:To xmlns:a="http://www.w3.org/2005/08/addressing">urn:pets</a:To></soapenv:Header>');
      expect((await post(`${headerless.url}/ws`, addressed)).status).toBe(200);
    } finally {
      await headerless.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
