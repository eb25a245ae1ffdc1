import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PYTHON } from '../interop/stacks';

/** The WS-Addressing 1.0 namespace. */
export const WSA = 'http://www.w3.org/2005/08/addressing';

const PETSTORE_WSDL = path.join(__dirname, '..', 'fixtures', 'soap', 'petstore.wsdl');

/** The petstore fixture WSDL with wsaw:UsingAddressing on its binding, written to `file`. */
export function writeAddressingWsdl(file: string): void {
  const text = readFileSync(PETSTORE_WSDL, 'utf8')
    .replace('xmlns:xsd=', 'xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl" xmlns:xsd=')
    .replace(
      '<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>',
      '<wsaw:UsingAddressing/><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>',
    );
  writeFileSync(file, text);
}

/**
 * zeep with its WsAddressingPlugin calls getPet(`id`) from the WSDL at `wsdlUrl` (the script is
 * written in `dir`). Its output: `SENT <its MessageID>`, `RELATES <each RelatesTo it got, by commas>`,
 * `PET <id> <name>` (nothing after an error, which comes after them).
 */
export function zeepWithAddressing(dir: string, wsdlUrl: string, id: number): Promise<string> {
  const script = path.join(dir, 'wsa.py');
  writeFileSync(
    script,
    `import sys
from zeep import Client
from zeep.wsa import WsAddressingPlugin
from zeep.plugins import HistoryPlugin
history = HistoryPlugin()
client = Client(sys.argv[1], plugins=[WsAddressingPlugin(), history])
pet = client.service.getPet(id=int(sys.argv[2]))
ns = {'wsa': '${WSA}'}
print('SENT', history.last_sent['envelope'].find('.//wsa:MessageID', ns).text)
print('RELATES', ','.join(x.text or '' for x in history.last_received['envelope'].findall('.//wsa:RelatesTo', ns)))
print('PET', pet.id, pet.name)
`,
  );
  return new Promise<string>((resolve) => {
    const child = spawn(PYTHON, [script, wsdlUrl, String(id)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('close', () => resolve(text));
  });
}
