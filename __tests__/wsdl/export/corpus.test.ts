import path from 'node:path';
import { SPEC_CORPUS, specCorpus, withCorpus } from '../../helpers/corpus';
import { equalBothWays, roundTrip } from './round-trip';

/**
 * The 93 real contracts of ../shared/spec-corpus, each exported: most are JSON or HTTP contracts
 * (nothing to export: refused), the SOAP ones are written as WSDLs, imported back and compared with
 * the original both ways. Measured: 21 export, 10 of them come back equal; the rest differ where a
 * WSDL cannot say what the contract says, and each such difference is named by the export (an
 * envelope without a Header, a SOAPAction listed in two spellings, rpc/encoded), checked below.
 */
withCorpus('spec-corpus', 'accord export wsdl over the spec corpus', () => {
  test('each SOAP contract exports; those that come back unequal say why; at least 10 come back equal', () => {
    const rows: string[] = [];
    let exported = 0;
    let equal = 0;
    for (const { file } of specCorpus()) {
      let r: ReturnType<typeof roundTrip>;
      try {
        r = roundTrip(path.join(SPEC_CORPUS, file));
      } catch {
        // A contract accord cannot read (the corpus keeps Specmatic's must-fail fixtures): nothing to export.
        continue;
      }
      if (r.exported.operations.length === 0) continue;
      exported++;
      if (equalBothWays(r)) equal++;
      // A contract that differs after the round trip has had something named as not written.
      else if (r.exported.dropped.length === 0) rows.push(`${file}: not equal, and nothing was named as not written`);
    }
    process.stdout.write(`spec corpus: ${exported} of ${specCorpus().length} contracts export a WSDL, ${equal} come back equal both ways\n`);
    expect(rows).toEqual([]);
    expect(exported).toBeGreaterThanOrEqual(21);
    expect(equal).toBeGreaterThanOrEqual(10);
  }, 120_000);
});
