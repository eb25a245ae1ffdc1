import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requestUrl } from '../../src/http/client';
import { AccordError } from '../../src/errors';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Received, type Running } from '../helpers/servers';

/**
 * A request path is a path under the base URL, never a URL of its own: a consumer's example whose
 * path reads as another host when resolved as a reference (`///host:port/x`, `/\\host:port`,
 * `/https:host:port`) or climbs above the base URL's path is refused, and the provider's
 * credentials go nowhere else. A real provider, a real second server on 127.0.0.1 that records
 * whether anything reached it, and a real `jest` run with accord's preset.
 */
const SPEC = `Feature: Things

  Scenario: Get one
    When GET /(name:string)
    Then status 200
    And response-body {"id": "(number)"}

  Scenario: Get two
    When GET /(a:string)/(b:string)
    Then status 200
    And response-body {"id": "(number)"}
`;

const TOKEN = 'tok-Origin-8Qx2';
const API_KEY = 'key-Origin-5Wz7';

let dir: string;
let provider: Running;
let elsewhere: Running;
const atProvider: Received[] = [];
const atElsewhere: Received[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-origin-'));
  provider = await startServer((req) => {
    atProvider.push(req);
    return { type: 'application/json', body: '{"id": 1}' };
  });
  elsewhere = await startServer((req) => {
    atElsewhere.push(req);
    return { type: 'application/json', body: '{"id": 1}' };
  });
  const host = new URL(elsewhere.url).host;
  writeFileSync(path.join(dir, 'package.json'), '{"name": "app", "private": true}');
  writeFileSync(path.join(dir, 'things.spec'), SPEC);
  const examples: Record<string, string> = {
    'triple-slash': `///${host}/x`,
    backslashes: `/\\\\${host}`,
    'slash-backslash': `/\\${host}/x`,
    scheme: `/https:${host}`,
    'http-scheme': `/http:${host}`,
    climb: '/../admin',
    'encoded-climb': '/%2e%2e/admin',
  };
  mkdirSync(path.join(dir, 'things_consumers', 'evil'), { recursive: true });
  for (const [name, p] of Object.entries(examples))
    writeFileSync(
      path.join(dir, 'things_consumers', 'evil', `${name}.json`),
      JSON.stringify({ name, 'http-request': { method: 'GET', path: p }, 'http-response': { status: 200, body: { id: 1 } } }),
    );
});

afterAll(async () => {
  await provider.close();
  await elsewhere.close();
  rmSync(dir, { recursive: true, force: true });
});

test('requestUrl joins a path under the base URL as text, never as a reference', () => {
  const at = (base: string, p: string) => requestUrl(base, { path: p, query: [] }).href;
  expect(at('http://127.0.0.1:8080/api', '/pets/1')).toBe('http://127.0.0.1:8080/api/pets/1');
  expect(at('http://127.0.0.1:8080/api/', '/')).toBe('http://127.0.0.1:8080/api/');
  expect(at('http://127.0.0.1:8080', '//evil.example:9/x')).toBe('http://127.0.0.1:8080//evil.example:9/x');
  expect(at('http://127.0.0.1:8080', '/\\\\evil.example:9')).toBe('http://127.0.0.1:8080///evil.example:9');
  expect(at('http://127.0.0.1:8080', '/https:evil.example:9')).toBe('http://127.0.0.1:8080/https:evil.example:9');
  expect(at('http://127.0.0.1:8080/api', '/a/../b')).toBe('http://127.0.0.1:8080/api/b');
  for (const p of ['/../admin', '/%2e%2e/admin', '/..;/admin', '/a/..%2f..%2fadmin', '/%252e%252e/admin', 'pets', '']) {
    expect(() => at('http://127.0.0.1:8080/api', p)).toThrow(AccordError);
  }
});

test("a consumer's example cannot send the provider's credentials to another host, nor above the base URL's path", async () => {
  const run = await runJestApp(
    dir,
    { baseUrl: `${provider.url}/api`, auth: { type: 'bearer', token: { env: 'ORIGIN_TOKEN' } }, headers: { 'X-Api-Key': { env: 'ORIGIN_KEY' } } },
    childEnv({ ACCORD_BASE_URL: '', ORIGIN_TOKEN: TOKEN, ORIGIN_KEY: API_KEY }),
    ['-i'],
  );
  expect(atElsewhere).toEqual([]);
  const host = new URL(elsewhere.url).host;
  // A path that would name another host as a reference is a path at the provider, under /api, with the credentials it is meant for.
  for (const name of ['triple-slash', 'backslashes', 'slash-backslash', 'scheme', 'http-scheme']) expect(run.output).toMatch(new RegExp(`✓ consumer evil › ${name}`));
  const sent = (u: string) => atProvider.find((r) => r.url === u);
  for (const u of [`/api///${host}/x`, `/api///${host}`, `/api//${host}/x`, `/api/https:${host}`, `/api/http:${host}`]) {
    expect({ u, authorization: sent(u)?.headers.authorization }).toEqual({ u, authorization: `Bearer ${TOKEN}` });
  }
  // One that climbs above the base URL's path fails (not skipped, not a pass), and says why.
  for (const name of ['climb', 'encoded-climb']) expect(run.output).toMatch(new RegExp(`✕ consumer evil › ${name}`));
  expect(run.output).toContain('a path may not climb above /api of the target');
  expect(atProvider.map((r) => r.url).filter((u) => !u.startsWith('/api/'))).toEqual([]);
  expect(run.status).toBe(1);
  expect(run.output).not.toContain(TOKEN);
  expect(run.output).not.toContain(API_KEY);
}, 60_000);
