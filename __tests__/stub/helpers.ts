import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';

export const REPO = path.join(__dirname, '..', '..');
export const CONTRACTS = path.join(REPO, 'contracts');
export const PET_SPEC = path.join(CONTRACTS, 'soap', 'api_pet_v1.spec');
export const PETSTORE_SPEC = path.join(CONTRACTS, 'soap', 'api_petstore_v1.spec');

export const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';

/** The seed's pet-lookup request, with the prefixes given (the contract uses soapenv and pet). */
export function petRequest(id: string, env = 'soapenv', pet = 'pet'): string {
  return (
    `<${env}:Envelope xmlns:${env}="${SOAP11}"><${env}:Header/><${env}:Body>` +
    `<${pet}:getPetRequest xmlns:${pet}="http://example.com/petstore"><${pet}:id>${id}</${pet}:id></${pet}:getPetRequest>` +
    `</${env}:Body></${env}:Envelope>`
  );
}

export function invoiceRequest(id: string): string {
  return `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header/><soapenv:Body><inv:getInvoiceIdsRequest xmlns:inv="http://example.com/invoices"><inv:id>${id}</inv:id></inv:getInvoiceIdsRequest></soapenv:Body></soapenv:Envelope>`;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8' }): Promise<Answer> {
  return call(url, { method: 'POST', body, headers });
}

export async function call(url: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Answer> {
  const res = await request(url, { method: init.method as 'GET', body: init.body, headers: init.headers });
  const body = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers, body };
}

export interface StubProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node bin/accord.js stub …` as a child process; resolves once it prints its URL. Needs `npm run build`. */
export function startStubProcess(args: string[]): Promise<StubProcess> {
  if (!existsSync(path.join(REPO, 'dist', 'stub', 'server.js'))) throw new Error('dist/ is missing the stub: run `npm run build` first (npm test does)');
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'stub', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (!m) return;
      child.stdout!.off('data', onData);
      resolve({ url: m[1], child, stdout: () => out, stderr: () => err, exited });
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`accord stub exited with ${code} before listening:\n${out}\n${err}`)));
  });
}

/** Runs the CLI to completion (for commands expected to fail fast). */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
