import { measureAcceptance, type Acceptance, type Limits } from '../helpers/accept/run';
import { withCorpus } from '../helpers/corpus';
import { corpusTargets, ownTargets } from '../helpers/xsd/targets';
import { depth } from '../helpers/depth';

/**
 * Issue 13's bar "every recorded real response is accepted by the contract
 * imported from its WSDL", as a property over real WSDLs: accord's own
 * requests and stub answers, varied the way real toolkits write the same data
 * (prefixes and default namespaces, indentation, an XML declaration and a BOM,
 * whitespace around collapsed values, other lexical forms of numbers, booleans
 * and dates, xsi:nil, left-out optional elements and attributes, repetitions,
 * comments, CDATA, character references, xsi:type naming the declared type,
 * WS-Addressing headers on answers). xmllint judges which variants are still
 * valid against the WSDL's own schemas; accord must accept every valid one:
 * answers as the runner matches them, requests as the stub does.
 * `ACCEPT_REPORT=1` prints the table of variants accepted / valid per WSDL.
 * When it came in (30 corpus WSDLs and 8 fixtures, this seed): 2535 of 2678 valid
 * variants accepted; refused were xs:boolean 1/0, xs:date with a time zone and
 * WS-Addressing Header blocks. Now 2678/2678.
 */
// A quarter of the messages and variants in `npm test` (helpers/depth.ts); CI checks all.
const LIMITS: Limits = depth({ messages: 12, perMessage: 8, relaidOut: 2, seed: 13 }, { messages: 6, perMessage: 4, relaidOut: 1, seed: 13 });

/**
 * Valid variants accord still refuses, by WSDL, each with why: the list is the
 * exception, not the rule; a WSDL not named here must accept every valid variant.
 */
const KNOWN: Record<string, { count: number; why: string }> = {};

const own = ownTargets();
const corpus = corpusTargets();
const results = new Map<string, Acceptance>();

beforeAll(async () => {
  // One at a time: generating a large WSDL's messages holds the event loop, and a stub answering another WSDL's requests in parallel would time out.
  for (const t of [...corpus, ...own]) results.set(t.name, await measureAcceptance(t.name, t.file, LIMITS));
  if (process.env.ACCEPT_REPORT) console.log(table([...results.values()]));
}, 300_000);

function table(rs: Acceptance[]): string {
  const lines = ['WSDL | originals valid | variants valid | accepted'];
  const sum = { valid: 0, accepted: 0 };
  const kinds = new Map<string, { valid: number; accepted: number }>();
  for (const r of rs) {
    lines.push(
      `${r.name} | ${r.loadError ? `cannot load ${r.loadError.slice(0, 200)}` : `${r.originals.valid}/${r.originals.total} | ${r.variants.valid}/${r.variants.generated} | ${r.variants.accepted}/${r.variants.valid} | unjudged ${r.unjudged}`} | ${r.ms} ms`,
    );
    sum.valid += r.variants.valid;
    sum.accepted += r.variants.accepted;
    for (const [k, c] of r.byKind) {
      const t = kinds.get(k) ?? { valid: 0, accepted: 0 };
      t.valid += c.valid;
      t.accepted += c.accepted;
      kinds.set(k, t);
    }
    for (const x of r.rejections.slice(0, Number(process.env.ACCEPT_REPORT) || 6)) lines.push(`    ${x.side} "${x.scenario}" ${x.what}: ${x.why.trim()}`);
  }
  lines.push(`all | | | ${sum.accepted}/${sum.valid}`);
  lines.push('', 'by variation: accepted/valid');
  for (const [k, c] of [...kinds].sort()) lines.push(`  ${k}: ${c.accepted}/${c.valid}`);
  return lines.join('\n');
}

function accepted(name: string): void {
  test('accepts every variant xmllint finds valid', () => {
    const r = results.get(name)!;
    if (r.loadError) return; // xsd-validity.test.ts lists the WSDLs xmllint cannot load.
    expect(r.originals.total).toBeGreaterThan(0);
    const known = KNOWN[name]?.count ?? 0;
    expect({ rejected: r.rejections.length, examples: r.rejections.slice(0, 5) }).toEqual({ rejected: known, examples: known ? expect.anything() : [] });
  });
}

describe.each(own.map((t) => [t.name] as const))('%s', accepted);

withCorpus('wsdl-corpus', 'valid variants of messages of the corpus WSDLs', () => {
  describe.each(corpus.map((t) => [t.name] as const))('%s', accepted);
});
