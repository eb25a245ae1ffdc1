import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Repeat } from '../../src/stub/decide/repeat';
import { startStub, type RunningStub } from '../../src/stub';
import type { ExpectationHandle, ExpectationInput } from '../../src/stub/admin/expectations';
import { call, CONTRACTS, PET_SPEC, petRequest, REPO } from './helpers';

/**
 * The same request again is answered from the scope's last answer (decide/repeat.ts) without being
 * decoded or matched. Whatever happens between two requests (expectations added, removed, used up,
 * a reset, named state, a header or encoding that differs), a stub must answer and journal exactly
 * as one that works every request out afresh: a verbose stub never repeats, so it is the reference.
 */

const ITEMS = `Feature: Items by tenant
  Scenario: An item
    When GET /items/(id:number)
    And request-header X-Tenant (string)
    Then status 200
    And response-body {"id": "(number)", "name": "(string)"}
`;

let dir: string;
let contracts: string[];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-repeat-'));
  writeFileSync(path.join(dir, 'items.spec'), ITEMS);
  contracts = [PET_SPEC, path.join(CONTRACTS, 'pets', 'api_pets_v1.spec'), path.join(dir, 'items.spec')];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small deterministic generator (mulberry32): the same script every run. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
}

interface Asked {
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
}

const XML = 'text/xml; charset=utf-8';
const TEMPLATED = (what: string) =>
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore">' +
  `<pet:id>{{request.body.id}}</pet:id><pet:name>${what}</pet:name><pet:type>dog</pet:type><pet:status>available</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;

function request(pick: (n: number) => number): Asked {
  const scope = ['', '', '', '/_scope/s1'][pick(4)];
  switch (pick(4)) {
    case 0:
    case 1:
      return { method: 'POST', path: `${scope}/ws`, body: petRequest(String(1 + pick(2))), headers: { 'content-type': XML } };
    case 2:
      return { method: 'GET', path: `${scope}/pets/${[10, 42, 7][pick(3)]}`, headers: {} };
    default:
      return { method: 'GET', path: `${scope}/items/${1 + pick(2)}`, headers: { 'x-tenant': ['a', 'b'][pick(2)] } };
  }
}

/** The request with one thing changed: what a repeated answer must not be given for. */
function variant(a: Asked, pick: (n: number) => number): Asked {
  const headers = { ...a.headers };
  switch (pick(6)) {
    case 0:
      headers['x-tenant'] = headers['x-tenant'] === 'a' ? 'b' : 'a';
      return { ...a, headers };
    case 1:
      headers['content-type'] = headers['content-type'] === XML ? 'text/xml' : XML;
      return { ...a, headers };
    case 2:
      // The same bytes said to be compressed: not a request answered before.
      if (headers['content-encoding']) delete headers['content-encoding'];
      else headers['content-encoding'] = ['identity', 'gzip'][pick(2)];
      return { ...a, headers };
    case 3:
      return { ...a, method: ({ GET: 'DELETE', DELETE: 'GET', POST: 'PUT', PUT: 'POST' } as Record<string, string>)[a.method] };
    case 4:
      return { ...a, path: a.path.includes('?') ? a.path.slice(0, a.path.indexOf('?')) : `${a.path}?x=1` };
    default:
      return a.body === undefined ? a : { ...a, body: a.body.replace(/<pet:id>(\d)</, (_, d: string) => `<pet:id>${(Number(d) % 2) + 1}<`) };
  }
}

function expectation(pick: (n: number) => number): ExpectationInput {
  const id = String(1 + pick(2));
  const times = pick(3) === 0 ? 1 + pick(2) : undefined;
  const kind = pick(6);
  const response = kind === 0 ? { body: TEMPLATED('pet {{request.body.id}}') } : kind === 1 ? { body: TEMPLATED('number {{sequence}}') } : kind === 2 ? { status: 200 } : undefined;
  const state = pick(8) === 0 ? { name: 'm', requires: pick(2) === 0 ? 'Started' : 'on', becomes: pick(2) === 0 ? 'on' : 'Started' } : undefined;
  return pick(4) === 0
    ? { request: { method: 'GET', path: `/pets/${[10, 42][pick(2)]}` }, response: { body: { petid: 5 + pick(3) } }, times }
    : { request: { method: 'POST', path: '/ws', body: petRequest(id) }, response, times, state };
}

/** What a client sees of an answer, and what the journal says of it. */
async function ask(stub: RunningStub, a: Asked): Promise<string> {
  const got = await call(`${stub.url}${a.path}`, { method: a.method, body: a.body, headers: a.headers });
  return `${got.status} ${got.headers['content-type']} ${got.body}`;
}

/** The journal of the root and of scope s1, as the API gives it, but for the times. */
async function journal(stub: RunningStub): Promise<string> {
  const root = await call(`${stub.url}/_accord/requests`, { method: 'GET' });
  const scoped = await call(`${stub.url}/_scope/s1/_accord/requests`, { method: 'GET' });
  return `${root.body}\n${scoped.body}`.replace(/"time":[^,]*,/g, '').replace(/"host":"[^"]*"/g, '');
}

it('answers, journals and counts uses like a stub that works every request out afresh (random scripts)', async () => {
  let asked = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const pick = random(seed);
    const fast = await startStub({ contracts });
    const fresh = await startStub({ contracts, verbose: true, log: () => undefined });
    const handles: [ExpectationHandle, ExpectationHandle][] = [];
    // The request asked now: asked again and again, changed in one thing now and then, so every
    // change of the stub's state happens between two of the same requests.
    let now = request(pick);
    try {
      for (let step = 0; step < 150; step++) {
        const op = pick(10);
        if (op === 0) {
          const input = expectation(pick);
          handles.push([fast.expect(input), fresh.expect(input)]);
        } else if (op === 1 && handles.length > 0) {
          const [a, b] = handles.splice(pick(handles.length), 1)[0];
          expect(a.remove()).toBe(b.remove());
        } else if (op === 2 && pick(3) === 0) {
          fast.reset();
          fresh.reset();
        } else if (op === 3 && pick(2) === 0) {
          now = request(pick);
        } else if (op === 3) {
          const to = ['on', 'Started'][pick(2)];
          fast.setState('m', to);
          fresh.setState('m', to);
        } else if (op === 4 || op === 5) {
          now = variant(now, pick);
        } else {
          for (let n = 1 + pick(3); n > 0; n--) {
            asked++;
            expect(await ask(fast, now)).toBe(await ask(fresh, now));
          }
          expect(await journal(fast)).toBe(await journal(fresh));
          expect(handles.map(([x]) => `${x.id} ${x.used}`)).toEqual(handles.map(([, y]) => `${y.id} ${y.used}`));
        }
      }
    } finally {
      await Promise.all([fast.close(), fresh.close()]);
    }
  }
  expect(asked).toBeGreaterThan(600);
}, 60_000);

it('repeats only the same bytes, with the same headers that matter, while what chose the answer stands', () => {
  const repeat = new Repeat<string, never>();
  const table = {};
  const bytes = Buffer.from('<a>1</a>');
  const headers = { 'content-type': 'text/xml', 'x-other': 'ignored' };
  const names = () => ['content-type', 'content-encoding'];
  const entry = {
    table,
    version: 3,
    method: 'POST',
    url: '/ws',
    request: { method: 'POST', path: '/ws', query: [], body: '<a>1</a>' },
    journal: 'j',
    answer: { status: 200, headers: {}, body: 'ok' },
  };
  repeat.keep(entry, names, bytes, headers);
  // The socket's buffer may be reused: what is kept is a copy.
  bytes[3] = 0x32;
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.from('<a>1</a>'), { ...headers, 'x-other': 'else' })?.journal).toBe('j');
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.from('<a>2</a>'), headers)).toBeUndefined();
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.from('<a>1</a> '), headers)).toBeUndefined();
  expect(repeat.find(table, 3, 'POST', '/ws', undefined, headers)).toBeUndefined();
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.from('<a>1</a>'), { 'content-type': 'application/xml' })).toBeUndefined();
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.from('<a>1</a>'), { ...headers, 'content-encoding': 'identity' })).toBeUndefined();
  expect(repeat.find(table, 4, 'POST', '/ws', Buffer.from('<a>1</a>'), headers)).toBeUndefined();
  expect(repeat.find({}, 3, 'POST', '/ws', Buffer.from('<a>1</a>'), headers)).toBeUndefined();
  expect(repeat.find(table, 3, 'PUT', '/ws', Buffer.from('<a>1</a>'), headers)).toBeUndefined();
  expect(repeat.find(table, 3, 'POST', '/ws?x', Buffer.from('<a>1</a>'), headers)).toBeUndefined();
  repeat.keep(entry, names, undefined, headers);
  expect(repeat.find(table, 3, 'POST', '/ws', undefined, headers)?.journal).toBe('j');
  expect(repeat.find(table, 3, 'POST', '/ws', Buffer.alloc(0), headers)).toBeUndefined();
  repeat.clear();
  expect(repeat.find(table, 3, 'POST', '/ws', undefined, headers)).toBeUndefined();
});

it('a named state moved between two of the same requests changes the answer', async () => {
  const stub = await startStub({ contracts });
  try {
    // The scenario answers while the machine is in Started; the expectation once it is on.
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('1') }, response: { body: TEMPLATED('switched on') }, state: { name: 'm', requires: 'on' } });
    // What could move it (else the request would wait for a state nothing reaches: a 409).
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('2') }, state: { name: 'm', becomes: 'on' } });
    const a: Asked = { method: 'POST', path: '/ws', body: petRequest('1'), headers: { 'content-type': XML } };
    const before = await ask(stub, a);
    expect(await ask(stub, a)).toBe(before);
    expect(before).toMatch(/^200 .*getPetResponse/);
    expect(before).not.toContain('switched on');
    stub.setState('m', 'on');
    expect(await ask(stub, a)).toContain('switched on');
  } finally {
    await stub.close();
  }
});

it('an example file that waits for a state answers once another request moved it', async () => {
  const wsdl = mkdtempSync(path.join(tmpdir(), 'accord-repeat-state-'));
  const envelope = (inner: string) => `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
  const S = 'xmlns:s="http://example.com/shelter"';
  const getPet = envelope(`<s:getPet ${S}><s:id>7</s:id></s:getPet>`);
  copyFileSync(path.join(REPO, '__tests__', 'fixtures', 'state', 'pets.wsdl'), path.join(wsdl, 'pets.wsdl'));
  mkdirSync(path.join(wsdl, 'pets_examples'));
  const example = (name: string, json: object) => writeFileSync(path.join(wsdl, 'pets_examples', name), JSON.stringify(json));
  example('add.json', {
    'http-request': { method: 'POST', path: '/shelter', body: envelope(`<s:addPet ${S}><s:id>7</s:id><s:name>Rex</s:name></s:addPet>`) },
    'http-response': { status: 200, body: envelope(`<s:addPetResponse ${S}><s:added>true</s:added></s:addPetResponse>`) },
    state: { name: 'pets', becomes: 'added' },
  });
  example('get-after.json', {
    'http-request': { method: 'POST', path: '/shelter', body: getPet },
    'http-response': { status: 200, body: envelope(`<s:getPetResponse ${S}><s:id>7</s:id><s:name>Rex</s:name><s:status>available</s:status></s:getPetResponse>`) },
    state: { name: 'pets', requires: 'added' },
  });
  const stub = await startStub({ contracts: [path.join(wsdl, 'pets.wsdl')], log: () => undefined });
  try {
    const headers = { 'content-type': XML, soapaction: '"http://example.com/shelter/getPet"' };
    const get: Asked = { method: 'POST', path: '/shelter', body: getPet, headers };
    // Before addPet no example answers getPet: the answer is generated, the same each time.
    const before = await ask(stub, get);
    expect(await ask(stub, get)).toBe(before);
    expect(before).not.toContain('>Rex<');
    await call(`${stub.url}/shelter`, {
      method: 'POST',
      body: envelope(`<s:addPet ${S}><s:id>7</s:id><s:name>Rex</s:name></s:addPet>`),
      headers: { ...headers, soapaction: '"http://example.com/shelter/addPet"' },
    });
    expect(await ask(stub, get)).toContain('>Rex<');
  } finally {
    await stub.close();
    rmSync(wsdl, { recursive: true, force: true });
  }
});

it('a stub that logs or delays every request does so for the same request again', async () => {
  const lines: string[] = [];
  const a: Asked = { method: 'POST', path: '/ws', body: petRequest('1'), headers: { 'content-type': XML } };
  const verbose = await startStub({ contracts, verbose: true, log: (line) => lines.push(line) });
  const slow = await startStub({ contracts, delayMs: 120 });
  const plain = await startStub({ contracts });
  try {
    for (let i = 0; i < 3; i++) await ask(verbose, a);
    expect(lines.filter((l) => l.startsWith('POST /ws -> 200'))).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await ask(slow, a);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(100);
    }
    // An expectation's own delay and fault, likewise.
    plain.expect({ request: { method: 'POST', path: '/ws', body: petRequest('1') }, delayMs: 120 });
    plain.expect({ request: { method: 'POST', path: '/ws', body: petRequest('2') }, fault: 'malformed-body' });
    const b: Asked = { ...a, body: petRequest('2') };
    const broken = await ask(plain, b);
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      expect(await ask(plain, a)).toMatch(/^200 /);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(100);
      expect(await ask(plain, b)).toBe(broken);
    }
  } finally {
    await Promise.all([verbose.close(), slow.close(), plain.close()]);
  }
});

it('the same WS-Addressing or MTOM request again is answered as the first time: addressed, and as MTOM', async () => {
  const stub = await startStub({ contracts: path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), log: () => undefined });
  try {
    const wsa = 'xmlns:wsa="http://www.w3.org/2005/08/addressing"';
    const addressed = petRequest('3').replace('<soapenv:Header/>', `<soapenv:Header><wsa:MessageID ${wsa}>urn:uuid:1</wsa:MessageID></soapenv:Header>`);
    const action = { soapaction: '"http://example.com/petstore/getPet"' };
    const a: Asked = { method: 'POST', path: '/ws', body: addressed, headers: { 'content-type': XML, ...action } };
    const first = await ask(stub, a);
    expect(first).toContain('urn:uuid:1</wsa:RelatesTo>');
    expect(await ask(stub, a)).toBe(first);
    // MTOM: a multipart/related request (one boundary, so the same bytes), answered multipart too.
    const boundary = 'uuid:0ca0e16e+id=1';
    const contentType = `multipart/related; type="application/xop+xml"; boundary="${boundary}"; start-info="text/xml"`;
    const body = [`--${boundary}`, 'Content-Type: application/xop+xml; charset=UTF-8; type="text/xml"', '', petRequest('3'), `--${boundary}--`, ''].join('\r\n');
    const m: Asked = { method: 'POST', path: '/ws', body, headers: { 'content-type': contentType, ...action } };
    const once = await ask(stub, m);
    expect(once).toMatch(/^200 multipart\/related/);
    expect(await ask(stub, m)).toMatch(/^200 multipart\/related/);
    // The same bytes as plain XML are no envelope: not the answer the MTOM request got.
    expect(await ask(stub, { ...m, headers: { ...m.headers, 'content-type': 'text/xml' } })).toMatch(/^400 /);
  } finally {
    await stub.close();
  }
});

it('a reloaded contract is answered from, not the answer kept before the reload', async () => {
  const file = path.join(dir, 'reload.spec');
  const spec = (name: string) => `Feature: F\n  Scenario: S\n    When GET /thing\n    Then status 200\n    And response-body {"name": "${name}"}\n`;
  writeFileSync(file, spec('before'));
  const stub = await startStub({ contracts: file });
  try {
    expect((await call(`${stub.url}/thing`, { method: 'GET' })).body).toBe('{"name":"before"}');
    expect((await call(`${stub.url}/thing`, { method: 'GET' })).body).toBe('{"name":"before"}');
    writeFileSync(file, spec('after'));
    expect(stub.reload().ok).toBe(true);
    expect((await call(`${stub.url}/thing`, { method: 'GET' })).body).toBe('{"name":"after"}');
  } finally {
    await stub.close();
  }
});
