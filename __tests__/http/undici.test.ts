import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as undici from 'undici';
import { Agent, EnvHttpProxyAgent, request } from '../../src/http/undici';
import { startServer, type Received } from '../helpers/servers';

/**
 * accord loads only the parts of undici it sends with (src/http/undici.ts), not undici's index,
 * which loads fetch, WebSocket, caches and mocks too (~95 ms of CPU once per Jest worker).
 */
const ROOT = path.join(__dirname, '..', '..');

test("the classes are undici's own", () => {
  expect(Agent).toBe(undici.Agent);
  expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
});

// The preset's runtime (once per Jest worker), the proxy and the stub's pass-through (once per start).
test.each([['runner/runtime.js'], ['proxy/proxy.js'], ['stub/pass-through.js']])("dist/%s loads undici's dispatchers but not its fetch, WebSocket or mocks", (module) => {
  const script = `require(${JSON.stringify(path.join(ROOT, 'dist', module))});
const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]undici[\\\\/]/.test(f)).map((f) => f.replace(/\\\\/g, '/').replace(/.*\\/undici\\//, ''));
// The request API is on the dispatchers (the proxy agent connects through its client with \`connect\`).
const api = ['request', 'connect'].map((m) => typeof require('undici/lib/dispatcher/client').prototype[m]);
process.stdout.write(JSON.stringify({ loaded, api }));`;
  const { loaded, api } = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: ROOT })) as { loaded: string[]; api: string[] };
  expect(api).toEqual(['function', 'function']);
  expect(loaded).toContain('lib/dispatcher/agent.js');
  expect(loaded.filter((f) => f === 'index.js' || f.startsWith('lib/web/') || f.startsWith('lib/mock/'))).toEqual([]);
});

test('request sends as undici.request does: the path and query of the URL, GET without a body, PUT with one', async () => {
  const seen: Received[] = [];
  const server = await startServer((req) => {
    seen.push(req);
    return { body: `answer ${seen.length}` };
  });
  const agent = new Agent();
  try {
    const first = await request(`${server.url}/base/ws?x=1&y=%20`, { dispatcher: agent });
    expect(first.statusCode).toBe(200);
    expect(await first.body.text()).toBe('answer 1');
    const second = await request(new URL(`${server.url}/put`), { dispatcher: agent, body: 'hello' });
    await second.body.dump();
    // Without a dispatcher: undici's global one.
    const third = await request(`${server.url}/post`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'b' });
    expect(await third.body.text()).toBe('answer 3');
    expect(seen.map((r) => [r.method, r.url, r.body])).toEqual([
      ['GET', '/base/ws?x=1&y=%20', ''],
      ['PUT', '/put', 'hello'],
      ['POST', '/post', 'b'],
    ]);
  } finally {
    await agent.close();
    await server.close();
  }
});
