import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSA, writeAddressingWsdl } from '../helpers/ws-addressing';
import { hasStack, PYTHON } from '../interop/stacks';

/**
 * The Action of a WS-Addressing answer comes from the WSDL: `wsaw:Action` (or `wsam:Action`) on
 * the output or the fault, else the default action pattern of WS-Addressing Metadata 4.4.4
 * (`[tns]/[portType]/[output name]`, `[tns]/[portType]/[operation]/Fault/[fault name]`), for a stub
 * of the .wsdl and of the imported .spec alike; zeep's WsAddressingPlugin reads it.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-wsa-action-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The addressing petstore WSDL, with a NotFound fault, and `wsaw:Action`s on the output and the fault when `actions`. */
function wsdlFile(name: string, actions: boolean, tns = 'http://example.com/petstore'): string {
  const file = path.join(dir, name);
  writeAddressingWsdl(file);
  let text = readFileSync(file, 'utf8');
  text = text
    .split('"http://example.com/petstore"')
    .join(`"${tns}"`)
    .replace('</xsd:schema>', '<xsd:element name="notFound" type="xsd:string"/></xsd:schema>')
    .replace('<portType', '<message name="NotFoundFault"><part name="fault" element="tns:notFound"/></message><portType')
    .replace(
      '<output message="tns:GetPetOutput"/></operation>',
      actions
        ? '<output message="tns:GetPetOutput" wsaw:Action="urn:pets:GetPetAnswer"/><fault name="NotFound" message="tns:NotFoundFault" wsaw:Action="urn:pets:NoSuchPet"/></operation>'
        : '<output message="tns:GetPetOutput"/><fault name="NotFound" message="tns:NotFoundFault"/></operation>',
    )
    .replace(
      '<output><soap:body use="literal"/></output>',
      '<output><soap:body use="literal"/></output><fault name="NotFound"><soap:fault name="NotFound" use="literal"/></fault>',
    );
  writeFileSync(file, text);
  return file;
}

const envelope = (id: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsa="${WSA}"><s:Header><wsa:Action>http://example.com/petstore/getPet</wsa:Action>` +
  `<wsa:MessageID>urn:uuid:${id}</wsa:MessageID><wsa:ReplyTo><wsa:Address>${WSA}/anonymous</wsa:Address></wsa:ReplyTo></s:Header>` +
  `<s:Body><p:getPetRequest xmlns:p="http://example.com/petstore"><p:id>3</p:id></p:getPetRequest></s:Body></s:Envelope>`;

async function answerAction(contracts: string[], fault: boolean): Promise<string | undefined> {
  const stub = await startStub({ contracts, log: () => {} });
  try {
    if (fault)
      stub.expect({
        request: { method: 'POST', path: '/ws', headers: { SOAPAction: '"http://example.com/petstore/getPet"' }, body: envelope('1b4e28ba-2fa1-11d2-883f-0016d3cca427') },
        fault: 'soap-fault',
        faultName: 'NotFound',
      });
    const res = await request(`${stub.url}/ws`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', soapaction: '"http://example.com/petstore/getPet"' },
      body: envelope('1b4e28ba-2fa1-11d2-883f-0016d3cca427'),
    });
    const body = await res.body.text();
    expect(body).toContain('urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427</wsa:RelatesTo>');
    return /<wsa:Action[^>]*>([^<]*)<\/wsa:Action>/.exec(body)?.[1];
  } finally {
    await stub.close();
  }
}

function specOf(wsdl: string): string {
  const spec = wsdl.replace(/\.wsdl$/, '.spec');
  writeFileSync(spec, importWsdl(wsdl).text);
  return spec;
}

test('wsaw:Action on the output and the fault: the import tags each scenario, and both stubs answer the declared Action', async () => {
  const wsdl = wsdlFile('declared.wsdl', true);
  const text = importWsdl(wsdl).text;
  expect(text).toContain('@wsa-action:urn:pets:GetPetAnswer');
  expect(text).toContain('@wsa-action:urn:pets:NoSuchPet');
  for (const contracts of [[wsdl], [specOf(wsdl)]]) {
    expect(await answerAction(contracts, false)).toBe('urn:pets:GetPetAnswer');
    expect(await answerAction(contracts, true)).toBe('urn:pets:NoSuchPet');
  }
});

test('no wsaw:Action: the default pattern [tns]/[portType]/[operation]Response, and ":" for a URN namespace', async () => {
  const wsdl = wsdlFile('default.wsdl', false);
  const text = importWsdl(wsdl).text;
  expect(text).toContain('@wsa-action:http://example.com/petstore/PetPortType/getPetResponse');
  expect(text).toContain('@wsa-action:http://example.com/petstore/PetPortType/getPet/Fault/NotFound');
  for (const contracts of [[wsdl], [specOf(wsdl)]]) {
    expect(await answerAction(contracts, false)).toBe('http://example.com/petstore/PetPortType/getPetResponse');
    expect(await answerAction(contracts, true)).toBe('http://example.com/petstore/PetPortType/getPet/Fault/NotFound');
  }
  const urn = importWsdl(wsdlFile('urn.wsdl', false, 'urn:example:pets')).text;
  expect(urn).toContain('@wsa-action:urn:example:pets:PetPortType:getPetResponse');
  expect(urn).toContain('@wsa-action:urn:example:pets:PetPortType:getPet:Fault:NotFound');
  const slash = importWsdl(wsdlFile('slash.wsdl', false, 'http://example.com/pets/')).text;
  expect(slash).toContain('@wsa-action:http://example.com/pets/PetPortType/getPetResponse');
});

(hasStack('zeep') ? test : test.skip)(
  'zeep with WsAddressingPlugin reads the declared Action of the answer',
  async () => {
    const wsdl = wsdlFile('zeep.wsdl', true);
    const stub = await startStub({ contracts: [wsdl], log: () => {} });
    try {
      const script = `import sys
from zeep import Client
from zeep.wsa import WsAddressingPlugin
from zeep.plugins import HistoryPlugin
history = HistoryPlugin()
client = Client(sys.argv[1], plugins=[WsAddressingPlugin(), history])
pet = client.service.getPet(id=3)
ns = {'wsa': '${WSA}'}
print('ACTION', history.last_received['envelope'].find('.//wsa:Action', ns).text)
`;
      const out = await new Promise<string>((resolve) => {
        const child = spawn(PYTHON, ['-c', script, `${stub.url}/ws?wsdl`], { stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr.on('data', (d: Buffer) => (text += d.toString()));
        child.on('close', () => resolve(text.trim()));
      });
      expect(out).toBe('ACTION urn:pets:GetPetAnswer');
    } finally {
      await stub.close();
    }
  },
  30_000,
);
