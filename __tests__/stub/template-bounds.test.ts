import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { TEMPLATE_LIMITS } from '../../src/limits';
import { matchRowResponse } from '../../src/runner/row-values';
import { connectStub, startStub, type RunningStub } from '../../src/stub';
import { REPO, post } from './helpers';

/**
 * A template's answer is bounded while it is made (TEMPLATE_LIMITS.answerChars): 255 copies of
 * `{{request.body.text}}` in an expectation, an Examples cell or an example file, or one
 * placeholder in a cell the generator puts in each of 1,000 nodes, once made a 1 MiB request into
 * hundreds of megabytes (and 4 MiB into an internal error). Now the answer is a 413 whose body
 * says which bound refused it, the journal keeps that report, and stderr has one line. Real stub
 * on 127.0.0.1, expectations set in-process (Jest) and over HTTP.
 */
const SPEC = path.join(REPO, '__tests__', 'fixtures', 'template-bounds', 'echo.spec');
const MiB = 1024 * 1024;
const copies = (n: number) => '{{request.body.text}}'.repeat(n);
const json = { 'content-type': 'application/json' };

let stub: RunningStub;
let dir: string;
const lines: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-template-bounds-'));
  copyFileSync(SPEC, path.join(dir, 'echo.spec'));
  stub = await startStub({ contracts: [path.join(dir, 'echo.spec')], log: (l) => lines.push(l), maxBodyBytes: 8 * MiB });
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  stub.reset();
  lines.length = 0;
});

/** The answer is the bound's refusal: a short 413 (as the stub's other bounds) that names it, the journal's report, one line on stderr. */
function expectRefused(a: { status: number; body: string }, who: RegExp): void {
  expect(a.status).toBe(413);
  expect(a.body).toMatch(who);
  expect(a.body).toContain(`more than ${TEMPLATE_LIMITS.answerChars} characters (TEMPLATE_LIMITS.answerChars`);
  expect(a.body.length).toBeLessThan(1000);
  expect(a.body.split('\n').filter((l) => l !== '')).toHaveLength(1);
  expect(lines.filter((l) => l.includes('TEMPLATE_LIMITS.answerChars'))).toEqual([a.body.trimEnd()]);
  expect(stub.calls().at(-1)).toMatchObject({ status: 413, report: a.body });
}

const big = (text: string) => JSON.stringify({ text });

describe('an expectation', () => {
  it.each([
    ['in-process (Jest)', false],
    ['over HTTP', true],
  ])('set %s with 255 copies of the request body: a 1 MiB and a 4 MiB request are refused, not made', async (_how, http) => {
    const e = { request: { method: 'POST', path: '/echo' }, response: { status: 200, body: `{"copies": "${copies(255)}"}` } };
    if (http) await connectStub(stub.url).expect(e);
    else stub.expect(e);
    for (const size of [MiB, 4 * MiB]) {
      lines.length = 0;
      const before = process.memoryUsage().rss;
      expectRefused(await post(`${stub.url}/echo`, big('x'.repeat(size)), json), /^accord stub: expectation \w+ cannot answer POST \/echo: its templated answer/);
      // Stopped as soon as the bound is passed: far less than the 255 MiB (or 1 GiB) the answer would be.
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * MiB);
    }
  });

  it('below the bound it echoes as before: nine copies of 1 MiB', async () => {
    stub.expect({ request: { method: 'POST', path: '/echo' }, response: { status: 200, body: `{"copies": "${copies(9)}"}` } });
    const a = await post(`${stub.url}/echo`, big('y'.repeat(MiB)), json);
    expect(a.status).toBe(200);
    expect(a.body.length).toBe(9 * MiB + 14);
    expect(a.body === `{"copies": "${'y'.repeat(9 * MiB)}"}`).toBe(true);
    expect(lines).toEqual([]);
  });

  it("is refused when registered if its own request's values would already pass the bound", () => {
    let caught: unknown;
    try {
      stub.expect({
        request: { method: 'POST', path: '/echo', headers: { 'x-big': 'h'.repeat(100_000) } },
        response: { status: 200, body: `{"copies": "${'{{request.headers.x-big}}'.repeat(200)}"}` },
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AccordError);
    expect((caught as Error).message).toContain(`would make an answer of more than ${TEMPLATE_LIMITS.answerChars} characters`);
  });
});

describe('an example file', () => {
  it("with 255 copies of its own 1 MiB request's text is refused when the stub starts, naming the file", async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'accord-template-bounds-file-'));
    try {
      copyFileSync(SPEC, path.join(own, 'echo.spec'));
      mkdirSync(path.join(own, 'echo_examples'));
      writeFileSync(
        path.join(own, 'echo_examples', 'big.json'),
        JSON.stringify({ 'http-request': { method: 'POST', path: '/echo', body: big('f'.repeat(MiB)) }, 'http-response': { status: 200, body: `{"copies": "${copies(255)}"}` } }),
      );
      const started = startStub({ contracts: [path.join(own, 'echo.spec')], log: () => {} });
      await expect(started).rejects.toThrow(`example file refused: its response template would make an answer of more than ${TEMPLATE_LIMITS.answerChars} characters`);
      await expect(started).rejects.toMatchObject({ location: { file: expect.stringContaining('big.json') } });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('an Examples row of the contract (any client can trigger it)', () => {
  it('a cell with 255 copies: a 1 MiB request is refused', async () => {
    const body = `<note><kind>many</kind><text>${'z'.repeat(MiB)}</text></note>`;
    expectRefused(await post(`${stub.url}/notes`, body), /^accord stub: the Examples row at .*echo\.spec:\d+ cannot answer POST \/notes: its templated answer/);
  });

  it('one placeholder the generator puts in each of 1,000 nodes: bounded as it is placed', async () => {
    const body = `<note><kind>list</kind><text>${'w'.repeat(MiB)}</text></note>`;
    expectRefused(await post(`${stub.url}/notes`, body), /^accord stub: the Examples row at .*echo\.spec:\d+ cannot answer POST \/notes: its templated answer/);
  });

  it('a small request is answered, its value in every node', async () => {
    const a = await post(`${stub.url}/notes`, `<note><kind>list</kind><text>${'v'.repeat(5000)}</text></note>`);
    expect(a.status).toBe(200);
    expect(a.body.split(`<copy>${'v'.repeat(5000)}</copy>`)).toHaveLength(1001);
    expect(lines).toEqual([]);
  });
});

describe("the provider's run of a row that echoes the request (runner/echo.ts, row-values.ts)", () => {
  it('fails, saying the bound, when the echoed cells would pass it: never a pass unchecked', () => {
    const tc = testCases(loadContract(SPEC)).find((t) => t.row?.values.get('kind') === 'many')!;
    const sent = { method: 'POST', path: '/notes', query: [], headers: {}, body: `<note><kind>many</kind><text>${'z'.repeat(MiB)}</text></note>` };
    const mismatches = matchRowResponse(tc, sent, { status: 200, headers: {}, body: '<echo><copies>short</copies></echo>' });
    expect(mismatches.some((m) => m.actual.includes(`more than ${TEMPLATE_LIMITS.answerChars} characters (TEMPLATE_LIMITS.answerChars`))).toBe(true);
  });
});

describe('work as well as size', () => {
  it('256 placeholders naming the last node of a 190,000-element body look it up once, not 256 times', async () => {
    const list = await startStub({ contracts: [path.join(REPO, '__tests__', 'fixtures', 'template-bounds', 'list.spec')], log: () => {} });
    try {
      list.expect({ request: { method: 'POST', path: '/list' }, response: { body: `<echo><copies>${copies(256)}</copies></echo>` } });
      const started = Date.now();
      const a = await post(`${list.url}/list`, `<note>${'<item>a</item>'.repeat(190_000)}<text>q</text></note>`);
      // Measured: ~13 s when each placeholder walked the tree again, ~1.3 s now.
      expect(Date.now() - started).toBeLessThan(6000);
      expect(a.status).toBe(200);
      expect(a.body).toContain(`<copies>${'q'.repeat(256)}</copies>`);
    } finally {
      await list.close();
    }
  }, 60_000);
});
