import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { importWsdl } from '../../src/wsdl';
import { specCorpus, SPEC_CORPUS, withCorpus, wsdlCorpus } from '../helpers/corpus';
import { depth } from '../helpers/depth';
import { sameChoices } from './shape-helpers';

/** shape.test.ts's comparison of the memo's choice with a full dispatch, on the shared corpora (thousands of requests). */
withCorpus(['wsdl-corpus', 'spec-corpus'], 'shapes on the shared corpora', () => {
  test('a request of a known shape gets the choice dispatch gives: the 30 real WSDLs and the 93 real contracts, every element text changed', () => {
    const contracts: Contract[] = [];
    for (const w of wsdlCorpus()) {
      try {
        contracts.push(parseContract(importWsdl(w.file).text, `${w.folder}.spec`));
      } catch {
        /* a WSDL the importer refuses has no contract to ask */
      }
    }
    for (const s of specCorpus()) {
      if (s.intent !== 'valid') continue;
      try {
        contracts.push(parseContract(readFileSync(path.join(SPEC_CORPUS, s.file), 'utf8'), s.file));
      } catch {
        /* not a contract accord reads */
      }
    }
    // Fewer values and slots: the corpora give thousands of requests.
    const { asked, byShape } = sameChoices(contracts, depth(['-1', '3.5', 'abc', 'true', '2024-02-29'], ['3.5', 'abc']), depth(4, 2));
    expect(asked).toBeGreaterThan(depth(4000, 1500));
    expect(byShape / asked).toBeGreaterThan(0.3);
  });
});
