import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * A service that echoes the run's secrets back escaped (JSON `\/` and `\u0026`, XML `&amp;`,
 * percent-encoding, base64 at an offset, base64url) must not get them into any output: a real
 * `jest` run with accord's preset, its terminal output, `--json`, jest-junit's XML and the HTML report.
 */
const TOKEN = 'tok/Sink+7&Qx<y>';
const API_KEY = 'key&Sink/93=zZ';

const SPEC = `Feature: Echo

  Scenario: Echo the credentials
    When GET /echo
    Then status 200
    And response-body {"id": "(number)"}
`;

/** Each way the service echoes a value. */
function forms(v: string): string[] {
  return [
    JSON.stringify(v).slice(1, -1).replace(/\//g, '\\/'),
    JSON.stringify(v).slice(1, -1).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e'),
    encodeURIComponent(v),
    encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    Buffer.from(`x${v}`).toString('base64'),
    Buffer.from(`xy${v}`).toString('base64url'),
  ];
}

let dir: string;
let service: Running;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-sinks-')));
  writeFileSync(path.join(dir, 'package.json'), '{"name": "app", "private": true}');
  writeFileSync(path.join(dir, 'echo.spec'), SPEC);
  // The body is written by hand (not JSON.stringify), so each escaped form is on the wire as it is.
  service = await startServer((req) => {
    const token = String(req.headers.authorization).slice('Bearer '.length);
    const key = String(req.headers['x-api-key']);
    const echoed = [...forms(token), ...forms(key)].map((f, i) => `"f${i}": "${f}"`).join(', ');
    return { type: 'application/json', body: `{"id": "not a number", ${echoed}}` };
  });
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a secret the service echoes escaped is hidden in the terminal, --json, JUnit and the HTML report', async () => {
  const run = await runJestApp(
    dir,
    { baseUrl: service.url, report: 'report.html', auth: { type: 'bearer', token: { env: 'SINK_TOKEN' } }, headers: { 'X-Api-Key': { env: 'SINK_KEY' } } },
    childEnv({ ACCORD_BASE_URL: '', SINK_TOKEN: TOKEN, SINK_KEY: API_KEY, JEST_JUNIT_OUTPUT_DIR: dir, JEST_JUNIT_OUTPUT_NAME: 'junit.xml' }),
    [
      '-i',
      '--json',
      '--outputFile=out.json',
      '--reporters=default',
      `--reporters=${require.resolve('jest-junit')}`,
      `--reporters=${path.join(__dirname, '..', '..', 'preset', 'report-reporter.js')}`,
    ],
  );
  expect(run.status).toBe(1);
  expect(run.output).toContain('Response received:');
  const sinks = {
    terminal: run.output,
    json: readFileSync(path.join(dir, 'out.json'), 'utf8'),
    junit: readFileSync(path.join(dir, 'junit.xml'), 'utf8'),
    html: readFileSync(path.join(dir, 'report.html'), 'utf8'),
  };
  // Each sink holds the failure (so the check below is not vacuous), and no form of either secret.
  for (const [name, text] of Object.entries(sinks)) {
    expect({ name, failure: text.includes('not a number') }).toEqual({ name, failure: true });
    for (const f of [TOKEN, API_KEY, ...forms(TOKEN), ...forms(API_KEY)]) expect({ name, leaked: text.includes(f) ? f : undefined }).toEqual({ name, leaked: undefined });
  }
  expect(run.output).toMatch(/"f0": "\*\*\*"/);
}, 90_000);
