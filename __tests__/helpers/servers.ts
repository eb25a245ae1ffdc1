import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface Running {
  url: string;
  close(): Promise<void>;
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  type?: string;
  /** Text is sent as UTF-8; bytes as they are (another encoding, gzip, a multipart message). */
  body: string | Buffer;
  /** More response headers (`content-encoding`). */
  headers?: Record<string, string>;
}

function listen(server: Server): Promise<Running> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/** A real HTTP server on 127.0.0.1 answering what `reply` says for each request it receives. */
export function startServer(reply: (req: Received) => Reply): Promise<Running> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = reply({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(r.status ?? 200, { 'content-type': r.type ?? 'text/xml; charset=utf-8', ...r.headers });
      res.end(r.body);
    });
  });
  return listen(server);
}

/** A server that accepts connections and never answers. */
export function startSilentServer(): Promise<Running> {
  return listen(createServer(() => undefined));
}

/** The pet lookup hosted by an independent SOAP implementation (the `soap` package) from a WSDL. */
export async function startSoapPetService(): Promise<Running> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const soap = require('soap') as typeof import('soap');
  const wsdl = readFileSync(path.join(__dirname, '..', 'fixtures', 'soap', 'petstore.wsdl'), 'utf8');
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const running = await listen(server);
  const names = ['Archie', 'Bella', 'Coco'];
  soap.listen(
    server,
    '/ws',
    {
      PetService: {
        PetPort: {
          getPet: (args: { id: string }) => ({ id: Number(args.id), name: names[Number(args.id) % names.length], type: 'dog', status: 'available' }),
        },
      },
    },
    wsdl,
  );
  return running;
}
