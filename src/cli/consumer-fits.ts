import path from 'node:path';
import type { ConsumerExampleFit } from '../compat/consumers';
import type { FilePair } from '../compat/sources';
import { parseContractCached } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError } from '../errors';
import { FILE_LIMITS, filesInside, readInputText } from '../files';
import { readJson } from '../json/parse';
import { excerpt } from '../printable';

/**
 * `accord compatible --consumers <folder>`: the consumers' examples of one compared contract
 * (`<folder>/<consumer>/<contract path>_examples/*.json`, the shared repository's layout, the
 * contract's path matched from its end), each fitted to the older and the newer version with
 * the stub's one fitting. compat/consumers.ts then judges them, pure.
 */
export function consumerFits(pair: FilePair, folder: string): ConsumerExampleFit[] {
  if (!pair.older || !pair.newer || pair.older.wsdl || pair.newer.wsdl) return [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fitting is loaded only when consumers are asked about
  const { EXAMPLE_SHAPE, fitExample } = require('../stub/answer/fit-example') as typeof import('../stub/answer/fit-example');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const fit = require('../stub/answer/consumer-example') as typeof import('../stub/answer/consumer-example');
  const lenient = { checkExamples: false };
  const older: Contract = parseContractCached(pair.older.text, pair.older.label, lenient);
  const newer: Contract = parseContractCached(pair.newer.text, pair.newer.label, lenient);
  const file = pair.file.replaceAll('\\', '/');
  const base = file.slice(0, file.length - path.extname(file).length);
  const out: ConsumerExampleFit[] = [];
  for (const rel of filesInside(folder, '.', '.json')) {
    const [consumer, ...rest] = rel.split('/');
    const dir = rest.slice(0, -1).join('/');
    if (!dir.endsWith('_examples')) continue;
    const contract = dir.slice(0, -'_examples'.length);
    if (base !== contract && !base.endsWith(`/${contract}`)) continue;
    const shown = path.join(folder, rel);
    const text = readInputText(path.join(folder, rel), { what: 'example file', limit: FILE_LIMITS.exampleBytes });
    const read = readJson(text);
    if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `example file is ${excerpt(read.problem, 200)}`, { file: shown });
    // Read as the stub read the expectation (typed placeholders, `{{…}}` templates, the scenario it names): what it accepted is not stale.
    const shape = (m: string) => new AccordError('ACCORD_ERR_USAGE', `example file ${m}; expected ${EXAMPLE_SHAPE}`, { file: shown });
    const older1 = fit.fitConsumerExample(read.value, older.scenarios, '', shape);
    const was = older1.fit;
    const now = fit.fitConsumerExample(read.value, newer.scenarios, '', shape).fit;
    // Which scenarios of each version take its request, whatever they answer: the overlap rule's findings are about those.
    const request = { ...older1.raw, response: undefined };
    const takenBy = (c: Contract) => c.scenarios.filter((s) => !s.unsupported && fitExample(request, [s]).ok).map((s) => s.name);
    out.push({
      consumer,
      file: shown,
      olderScenario: was.ok ? was.owner.name : undefined,
      newerMismatches: now.ok ? [] : now.mismatches.map((m) => m.path),
      newerWhy: now.ok ? undefined : now.why,
      olderTakenBy: takenBy(older),
      newerTakenBy: takenBy(newer),
    });
  }
  return out;
}
