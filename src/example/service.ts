import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../http/read-body';
import { DEFAULT_MAX_BODY_BYTES } from '../limits';
import { parseXml } from '../xml/parse';
import { elementChildren, textOf, type XmlElement } from '../xml/tree';

/**
 * The example service the README's `npm run example` tests: a pet lookup and
 * invoice ids over SOAP, and /square, /cube and /pets/{id} over plain HTTP.
 * Adopting a pet is not built yet, which is why that scenario is @WIP.
 */
export interface RunningService {
  url: string;
  close(): Promise<void>;
}

const PETS = ['Archie', 'Bella', 'Coco', 'Daisy'];
const TYPES = ['dog', 'cat'];

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Header/><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;
}

function fault(message: string): string {
  return envelope(`<SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode><faultstring>${message}</faultstring></SOAP-ENV:Fault>`);
}

function soap(body: string): { status: number; body: string } {
  let doc: XmlElement;
  try {
    doc = parseXml(body);
  } catch (e) {
    return { status: 500, body: fault(`malformed request: ${(e as Error).message}`) };
  }
  const soapBody = elementChildren(doc).find((c) => c.local === 'Body');
  const op = soapBody && elementChildren(soapBody)[0];
  if (!op) return { status: 500, body: fault('no operation in the SOAP body') };
  const id = Number(textOf(elementChildren(op).find((c) => c.local === 'id') ?? op));
  switch (op.local) {
    case 'getPetRequest':
      return {
        status: 200,
        body: envelope(
          `<ns1:getPetResponse xmlns:ns1="http://example.com/petstore"><ns1:id>${id}</ns1:id><ns1:name>${PETS[id % PETS.length]}</ns1:name><ns1:type>${TYPES[id % 2]}</ns1:type><ns1:status>available</ns1:status></ns1:getPetResponse>`,
        ),
      };
    case 'getInvoiceIdsRequest':
      return {
        status: 200,
        body: envelope(`<i:getInvoiceIdsResponse xmlns:i="http://example.com/invoices"><i:id>${id * 10 + 1}</i:id><i:id>${id * 10 + 2}</i:id></i:getInvoiceIdsResponse>`),
      };
    default:
      return { status: 500, body: fault(`operation ${op.local} is not implemented yet`) };
  }
}

function handle(req: IncomingMessage, body: string, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const reply = (status: number, type: string, text: string) => {
    res.writeHead(status, { 'content-type': type });
    res.end(text);
  };
  if (req.method === 'POST' && url.pathname === '/ws') {
    const r = soap(body);
    return reply(r.status, 'text/xml; charset=utf-8', r.body);
  }
  if (req.method === 'POST' && (url.pathname === '/square' || url.pathname === '/cube')) {
    const n = Number(body.trim());
    if (!Number.isFinite(n)) return reply(400, 'text/plain', 'not a number');
    return reply(200, 'text/plain', String(url.pathname === '/square' ? n * n : n * n * n));
  }
  const pet = /^\/pets\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && pet) return reply(200, 'application/json', JSON.stringify({ petid: Number(pet[1]) }));
  reply(404, 'text/plain', 'not found');
}

export function startExampleService(port = 0, host = '127.0.0.1'): Promise<RunningService> {
  const server: Server = createServer((req, res) => {
    // Bounded as every input is; past the bound the rest is drained, so the 413 reaches the client.
    readBody(req, DEFAULT_MAX_BODY_BYTES, 'drain', (error, read) => {
      if (error) return void res.destroy();
      if (!read!.complete) {
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
        return void res.end(`request body larger than ${DEFAULT_MAX_BODY_BYTES} bytes`);
      }
      handle(req, read!.bytes.toString('utf8'), res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${actual}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
