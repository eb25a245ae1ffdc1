import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startServer, type Running } from '../helpers/servers';
import { runProxy } from './proxy-helpers';

/**
 * `accord proxy --check` shows a finding's exchange with the credentials it carried hidden: a
 * `<credential>` element's value in the request, and that value wherever the service echoes it
 * (as it is, XML-escaped, percent-encoded), and the bearer token the client sent. A real service on
 * 127.0.0.1, the CLI as a child process (npm run build first).
 */
const CREDENTIAL = 'cr3d&Val/ue<9>';
const TOKEN = 'tok-Proxy/Check&5';
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-secrets-'));
let service: Running;

beforeAll(async () => {
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(
    path.join(dir, 'contracts', 'login.spec'),
    `Feature: Login

  Scenario: Log in
    When POST /login
    And request-body
    """
    <login><user>(string)</user><credential>(string)</credential></login>
    """
    Then status 200
    And response-body
    """
    <ok>(boolean)</ok>
    """
`,
  );
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // Drifts: a text where a boolean goes, quoting the credential back in three forms and the token in a header.
  service = await startServer((req) => ({
    body: `<ok>not ${xml(CREDENTIAL)} ${encodeURIComponent(CREDENTIAL)} ${xml(String(req.headers.authorization))}</ok>`,
    headers: { 'x-echo': encodeURIComponent(TOKEN) },
  }));
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

it('hides a <credential> value and the token in the told line and the report, in whatever form they come back', async () => {
  const run = await runProxy(dir, ['--target', service.url, '--check', 'contracts/login.spec', '--format', 'json']);
  const body = `<login><user>ann</user><credential>${CREDENTIAL.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</credential></login>`;
  const r = await request(`${run.url}/login`, { method: 'POST', headers: { 'content-type': 'text/xml', authorization: `Bearer ${TOKEN}` }, body });
  expect(r.statusCode).toBe(200);
  await r.body.text();
  const until = Date.now() + 10_000;
  while (!run.stderr().includes('drift: ') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  run.stop();
  const done = await run.exited;
  expect(done.code).toBe(1);
  const doc = JSON.parse(done.stdout.slice(done.stdout.indexOf('{'))) as { findings: { request: { body: string }; response: { body: string; headers: Record<string, string> } }[] };
  expect(doc.findings).toHaveLength(1);
  expect(doc.findings[0].request.body).toContain('<credential>***</credential>');
  expect(doc.findings[0].response.headers['x-echo']).toBe('***');
  const shown = `${done.stdout}\n${done.stderr}`;
  expect(shown).toContain('drift: POST /login "Log in"');
  for (const f of [CREDENTIAL, 'cr3d&amp;Val', encodeURIComponent(CREDENTIAL), 'cr3d\\u0026Val', TOKEN, encodeURIComponent(TOKEN), 'tok-Proxy/Check&amp;5'])
    expect({ f, shown: shown.includes(f) }).toEqual({ f, shown: false });
}, 60_000);
