import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { WSDL_CORPUS, hasCorpus, wsdlCorpus } from '../corpus';

/**
 * The WSDLs measured: every one of the shared corpus (read in place, when it
 * is beside the clone) and accord's own WSDL fixtures (always there).
 */
const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures');
const OWN = [
  path.join(FIXTURES, 'wsdl', 'features', 'features.wsdl'),
  path.join(FIXTURES, 'wsdl', 'structure', 'structure.wsdl'),
  path.join(FIXTURES, 'wsdl', 'structure', 'derived.wsdl'),
  path.join(FIXTURES, 'wsdl', 'structure', 'element-block.wsdl'),
  path.join(FIXTURES, 'wsdl', 'structure', 'strict.wsdl'),
  path.join(FIXTURES, 'wsdl', 'structure', 'catalog.wsdl'),
  path.join(FIXTURES, 'soap', 'petstore.wsdl'),
  path.join(FIXTURES, 'wsdl', 'facets', 'facets.wsdl'),
  path.join(FIXTURES, 'wsdl', 'facets', 'length-pattern.wsdl'),
  path.join(FIXTURES, 'wsdl', 'unions', 'unions.wsdl'),
  path.join(FIXTURES, 'wsdl', 'soap-headers', 'login.wsdl'),
  path.join(FIXTURES, 'wsdl', 'soap-headers', 'login20.wsdl'),
  path.join(FIXTURES, 'wsdl', 'soap-headers', 'ticket.wsdl'),
  path.join(FIXTURES, 'wsdl', 'rpc-encoded', 'quotes.wsdl'),
  path.join(FIXTURES, 'wsdl', 'rpc-encoded', 'login-any-order.wsdl'),
  path.join(FIXTURES, 'wsdl', 'rpc-encoded', 'portfolio.wsdl'),
  path.join(FIXTURES, 'wsdl', 'rpc-encoded', 'booking.wsdl'),
  path.join(FIXTURES, 'wsdl', 'transport', 'upload.wsdl'),
  path.join(FIXTURES, 'wsdl', 'defaults', 'settings.wsdl'),
  path.join(FIXTURES, 'wsdl', 'lenient', 'no-namespace.wsdl'),
  path.join(FIXTURES, 'wsdl', 'lenient', 'xml-lang.wsdl'),
  path.join(FIXTURES, 'wsdl', 'faults', 'pets.wsdl'),
  path.join(FIXTURES, 'wsdl', 'dataset', 'properties.wsdl'),
  path.join(FIXTURES, 'wsdl', 'big', 'record-ref.wsdl'),
];

export interface Target {
  /** The corpus folder, or `fixture:<file>`. */
  name: string;
  file: string;
}

export function ownTargets(): Target[] {
  return OWN.map((file) => ({ name: `fixture:${path.basename(file)}`, file }));
}

/** The corpus's WSDLs; none when ../shared/wsdl-corpus is absent. */
export function corpusTargets(): Target[] {
  return hasCorpus('wsdl-corpus') ? wsdlCorpus().map((e) => ({ name: e.folder, file: e.file })) : [];
}

export function wsdlTargets(): { targets: Target[]; corpusMissing?: string } {
  const corpus = corpusTargets();
  return { targets: [...corpus, ...ownTargets()], corpusMissing: corpus.length ? undefined : WSDL_CORPUS };
}

/**
 * Every `<name>/*.wsdl` under `dir` (a folder of WSDLs kept outside the clone,
 * e.g. real-world ones not seen before), named `<name>/<file>`.
 */
export function dirTargets(dir: string): Target[] {
  const targets: Target[] = [];
  for (const name of readdirSync(dir).sort()) {
    const folder = path.join(dir, name);
    if (!statSync(folder).isDirectory()) continue;
    for (const file of readdirSync(folder).sort()) {
      if (file.endsWith('.wsdl')) targets.push({ name: `${name}/${file}`, file: path.join(folder, file) });
    }
  }
  return targets;
}
