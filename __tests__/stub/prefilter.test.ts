import { parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { loadContracts } from '../../src/stub/contracts';
import { mayMatch } from '../../src/stub/decide/prefilter';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { importWsdl } from '../../src/wsdl';
import { withCorpus, wsdlCorpus } from '../helpers/corpus';
import { wsdlFixtures } from '../wsdl/fixtures';
import { CONTRACTS, invoiceRequest, petRequest } from './helpers';

/**
 * The prefilter may only skip scenarios that could not match. Checked against
 * the full matcher on every request generated from the example contracts and
 * from the contracts imported from the repository's WSDLs and (when ../shared
 * is there) the shared WSDL corpus (many operations on one path), for several
 * seeds.
 */
function imported(wsdls: { name: string; file: string }[]): Contract[] {
  return wsdls.map((w) => parseContract(importWsdl(w.file).text, `${w.name}.spec`));
}

function prefilterAgrees(contracts: Contract[], minCompared: number): void {
  let skipped = 0;
  let compared = 0;
  const unsound: string[] = [];
  for (const contract of contracts) {
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
  expect(compared).toBeGreaterThan(minCompared);
  // Most comparisons on a shared SOAP path are with other operations.
  expect(skipped / compared).toBeGreaterThan(0.5);
}

it('never skips a scenario the full matcher accepts, and skips most of the others', () => {
  prefilterAgrees([...loadContracts([CONTRACTS]), ...imported(wsdlFixtures())], 200);
});

withCorpus('wsdl-corpus', 'the same on contracts imported from the corpus WSDLs', () => {
  it('never skips a scenario the full matcher accepts, and skips most of the others', () => {
    prefilterAgrees(imported(wsdlCorpus().map((e) => ({ name: e.folder, file: e.file }))), 1000);
  });
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
