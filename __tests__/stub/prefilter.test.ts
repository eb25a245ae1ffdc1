import { parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { loadContracts } from '../../src/stub/contracts';
import { mayMatch } from '../../src/stub/prefilter';
import { buildRoutes } from '../../src/stub/routes';
import { importWsdl } from '../../src/wsdl';
import { corpusEntries } from '../wsdl/corpus';
import { CONTRACTS, invoiceRequest, petRequest } from './helpers';

/**
 * The prefilter may only skip scenarios that could not match. Checked against
 * the full matcher on every request generated from the example contracts and
 * from the contracts imported from the shared WSDL corpus (many operations on
 * one path), for several seeds.
 */
function allContracts(): Contract[] {
  const out = loadContracts([CONTRACTS]);
  for (const e of corpusEntries()) out.push(parseContract(importWsdl(e.file).text, `${e.folder}.spec`));
  return out;
}

it('never skips a scenario the full matcher accepts, and skips most of the others', () => {
  let skipped = 0;
  let compared = 0;
  const unsound: string[] = [];
  for (const contract of allContracts()) {
    const { routes } = buildRoutes([contract]);
    for (const tc of testCases(contract)) {
      for (let seed = 0; seed < 3; seed++) {
        const req = buildRequest(tc, seed);
        const body = new ParsedBody(req.body);
        const segments = splitPath(req.path);
        for (const route of routes) {
          const m = matchRequest(route.scenario, req, body, segments);
          if (!m.endpoint) continue;
          compared++;
          const may = mayMatch(route.required, body);
          if (!may) skipped++;
          if (!may && m.mismatches.length === 0) unsound.push(`${contract.file}: "${tc.name}" seed ${seed} skipped "${route.scenario.name}"`);
        }
      }
    }
  }
  expect(unsound).toEqual([]);
  expect(compared).toBeGreaterThan(1000);
  // Most comparisons on a shared SOAP path are with other operations.
  expect(skipped / compared).toBeGreaterThan(0.5);
});

it('skips another operation by its element name, whatever the prefixes', () => {
  const { routes } = buildRoutes(loadContracts([`${CONTRACTS}/soap/api_pet_v1.spec`]));
  const [pet, invoices] = routes;
  expect(mayMatch(pet.required, new ParsedBody(petRequest('1', 'S', 'p')))).toBe(true);
  expect(mayMatch(invoices.required, new ParsedBody(petRequest('1')))).toBe(false);
  expect(mayMatch(pet.required, new ParsedBody(invoiceRequest('1')))).toBe(false);
  // A body that is not XML is left to the full matcher, which explains it.
  expect(mayMatch(pet.required, new ParsedBody('<broken'))).toBe(true);
});
