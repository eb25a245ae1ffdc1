import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAccord } from '../helpers/cli-run';
import { expectContractsPass, fetchText, startJaxws, tearDown, withStacks, type Service } from './stacks';

/**
 * JAX-WS RI serves its WSDL at `…?wsdl` and the schema it imports at `…?xsd=1`, by URL. `accord
 * import wsdl <URL>` fetches both, writes them beside the contract with the import pointing at the
 * copy, and the contract (no `(anything)` in it) passes against JAX-WS. The WSDL saved alone (its
 * `?xsd=1` import left a URL) is refused: exit 2, naming the import, instead of a contract that tests nothing.
 */
withStacks(['jax-ws'], 'JAX-WS RI WSDL imported by URL, with its ?xsd=1', () => {
  let service: Service;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-jaxws-url-'));
    mkdirSync(path.join(dir, 'contracts'));
    ({ service } = await startJaxws(dir));
  }, 120_000);

  afterAll(() => tearDown({ stubs: [], service, dir }));

  test('accord import wsdl <URL> fetches the ?xsd=1 schema, writes both beside the contract, and the contract passes against JAX-WS', async () => {
    const url = `${service.url}/orders11?wsdl`;
    const r = await runAccord(['import', 'wsdl', url, '-o', 'contracts/orders11.spec'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^fetched 2 documents from http:\/\/127\.0\.0\.1:\d+: wrote contracts\/orders11\.wsdl, contracts\/orders11_xsd1\.xsd\nwrote contracts\/orders11\.spec\n/);
    expect(r.out).not.toMatch(/anything|unresolved/);
    expect(readdirSync(path.join(dir, 'contracts')).sort()).toEqual(['orders11.spec', 'orders11.wsdl', 'orders11_xsd1.xsd']);
    expect(readFileSync(path.join(dir, 'contracts', 'orders11.wsdl'), 'utf8')).toContain('schemaLocation="orders11_xsd1.xsd"');
    const spec = readFileSync(path.join(dir, 'contracts', 'orders11.spec'), 'utf8');
    expect(spec).not.toContain('(anything)');
    expect(spec).toContain('<total>(decimal)</total>');
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ getOrder/);
  }, 180_000);

  test('the WSDL saved alone, its ?xsd=1 import a URL: import wsdl, stub, compatible and import log --wsdl refuse it (exit 2) unless --allow-unresolved', async () => {
    const saved = path.join(dir, 'alone.wsdl');
    writeFileSync(saved, await fetchText(`${service.url}/orders11?wsdl`));
    const r = await runAccord(['import', 'wsdl', 'alone.wsdl', '-o', 'alone.spec'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^accord import wsdl: alone\.wsdl can only be imported in part; nothing written:$/m);
    expect(r.err).toMatch(
      /^ {2}alone\.wsdl:\d+: import http:\/\/127\.0\.0\.1:\d+\/orders11\?xsd=1 not loaded \(a URL, not fetched: `accord import wsdl <the WSDL's URL>` fetches it with the WSDL\)/m,
    );
    expect(readdirSync(dir)).not.toContain('alone.spec');
    const stub = await runAccord(['stub', 'alone.wsdl', '--port', '0'], dir);
    expect(stub.code).toBe(2);
    expect(stub.err).toMatch(/alone\.wsdl: can only be imported in part; not served:/);
    const compat = await runAccord(['compatible', 'alone.wsdl', 'alone.wsdl'], dir);
    expect(compat.code).toBe(2);
    writeFileSync(path.join(dir, 'calls.log'), '');
    const log = await runAccord(['import', 'log', 'calls.log', '--wsdl', 'alone.wsdl', '-o', 'log.spec'], dir);
    expect(log.code).toBe(2);
    expect(log.err).toMatch(/^accord import log: --wsdl alone\.wsdl can only be imported in part; nothing written:$/m);
    // Accepted on purpose: written, with one warning line per node that is (anything).
    const allowed = await runAccord(['import', 'wsdl', 'alone.wsdl', '-o', 'alone.spec', '--allow-unresolved'], dir);
    expect(allowed.code).toBe(0);
    expect(allowed.err.split('\n').filter((l) => / is \(anything\), accepting any content: /.test(l)).length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
