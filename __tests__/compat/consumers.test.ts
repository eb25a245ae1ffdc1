import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { checkCompatibility } from '../../src/compat';
import { consumerImpact, type ConsumerExampleFit } from '../../src/compat/consumers';
import { formatText } from '../../src/compat/report';
import { parseContract } from '../../src/contract/load';
import { fitExample, readExampleShape } from '../../src/stub/answer/fit-example';

/**
 * Which consumers a change breaks: the verdict's findings read against consumers' examples,
 * each fitted to both versions with the stub's fitting (as `accord compatible --consumers` does).
 */
const spec = (nodes: string) => `Feature: Orders

  Scenario: getOrder
    When POST /orders
    And request-body
    """
    <getOrder><orderId>(number)</orderId>${nodes}</getOrder>
    """
    Then status 200
    And response-body
    """
    <total>(number)</total>
    """
`;
const COUPON = '<coupon specmatic_occurs="optional">(string)</coupon>';
const GIFT = '<giftWrap specmatic_occurs="optional">(boolean)</giftWrap>';
const older = parseContract(spec(COUPON + GIFT), 'orders.spec');

function fits(newer: ReturnType<typeof parseContract>, examples: [string, string][]): ConsumerExampleFit[] {
  return examples.map(([consumer, body], i) => {
    const raw = readExampleShape({ 'http-request': { method: 'POST', path: '/orders', body }, 'http-response': { status: 200 } }, (m) => new Error(m), false);
    const was = fitExample(raw, older.scenarios);
    const now = fitExample(raw, newer.scenarios);
    return {
      consumer,
      file: `${consumer}/${i}.json`,
      olderScenario: was.ok ? was.owner.name : undefined,
      newerMismatches: now.ok ? [] : now.mismatches.map((m) => m.path),
      newerWhy: now.ok ? undefined : now.why,
    };
  });
}

const EXAMPLES: [string, string][] = [
  ['billing-ui', '<getOrder><orderId>1</orderId><coupon>X</coupon></getOrder>'],
  ['mobile', '<getOrder><orderId>2</orderId><coupon>Y</coupon></getOrder>'],
  ['web', '<getOrder><orderId>3</orderId></getOrder>'],
  ['web', '<getOrder><orderId>4</orderId></getOrder>'],
  ['kiosk', '<getOrder><orderId>5</orderId></getOrder>'],
  ['batch', '<getOrder><orderId>6</orderId></getOrder>'],
  // Stale: fitted no scenario of the older version either.
  ['legacy', '<getOrder><orderRef>7</orderRef></getOrder>'],
];

test('a break names the consumers whose examples it breaks, and how many never send it', () => {
  const newer = parseContract(spec(GIFT), 'orders.spec');
  const verdict = checkCompatibility(older, newer);
  const c = consumerImpact(verdict, fits(newer, EXAMPLES));
  expect(c.impacts.map((i) => i.message)).toEqual(['breaks `coupon` for billing-ui and mobile (2 of 6 consumers); 4 consumers never send it']);
  expect(c.impacts[0].files).toEqual(['billing-ui/0.json', 'mobile/1.json']);
  expect(c.stale).toEqual(['legacy/6.json']);
  expect(c.breaksNoConsumer).toBe(false);
  const text = formatText([{ file: 'orders.spec', status: 'compared', verdict, consumers: c }]);
  expect(text).toContain('  Consumers: breaks `coupon` for billing-ui and mobile (2 of 6 consumers); 4 consumers never send it');
  expect(text).toContain('Consumers: the change breaks billing-ui, mobile (2 of 6) (1 example fits no scenario of the older version either');
});

test('a break no consumer uses is said so, and only then is breaksNoConsumer set', () => {
  const newer = parseContract(spec(COUPON), 'orders.spec');
  const c = consumerImpact(checkCompatibility(older, newer), fits(newer, EXAMPLES));
  expect(c.impacts.map((i) => i.message)).toEqual(['breaks `giftWrap` for no consumer (6 consumers have examples; none uses it)']);
  expect(c.breaksNoConsumer).toBe(true);
  // No consumers at all: nothing to decide by.
  expect(consumerImpact(checkCompatibility(older, newer), []).breaksNoConsumer).toBe(false);
});

test("an example broken at no finding's place is charged to every finding of its scenario", () => {
  const newer = parseContract(spec(GIFT), 'orders.spec');
  const verdict = checkCompatibility(older, newer);
  const c = consumerImpact(verdict, [
    { consumer: 'odd', file: 'odd.json', olderScenario: 'getOrder', newerMismatches: ['RESPONSE.BODY total'], newerWhy: 'its response does not satisfy' },
  ]);
  expect(c.impacts[0].broken).toEqual(['odd']);
});

test('the file-pair form: --consumers names the folder, JSON carries the same, --consumers-decide passes an unused break', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-consumers-'));
  try {
    mkdirSync(path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'new'));
    writeFileSync(path.join(dir, 'old/orders.spec'), spec(COUPON + GIFT));
    writeFileSync(path.join(dir, 'new/orders.spec'), spec(COUPON));
    for (const [consumer, body] of EXAMPLES.slice(0, 3)) {
      mkdirSync(path.join(dir, 'shared', consumer, 'orders_examples'), { recursive: true });
      writeFileSync(path.join(dir, 'shared', consumer, 'orders_examples', 'e.json'), JSON.stringify({ 'http-request': { method: 'POST', path: '/orders', body } }));
    }
    const cli = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await run(['compatible', 'old/orders.spec', 'new/orders.spec', '--consumers', 'shared', ...args], {
        cwd: dir,
        stdout: (s) => (out += s),
        stderr: (s) => (err += s),
      });
      return { code, out, err };
    };
    const text = await cli();
    expect(text.out).toContain('Consumers: breaks `giftWrap` for no consumer (3 consumers have examples; none uses it)');
    expect(text.code).toBe(1);
    const json = JSON.parse((await cli('--json')).out) as { files: { consumers: { consumers: string[]; breaksNoConsumer: boolean } }[] };
    expect(json.files[0].consumers).toMatchObject({ consumers: ['billing-ui', 'mobile', 'web'], breaksNoConsumer: true });
    const decided = await cli('--consumers-decide');
    expect(decided.out).toContain('passed (--consumers-decide)');
    expect(decided.code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('JUnit, GitHub, SARIF and HTML name the consumers each break breaks, as text and JSON do', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-consumers-ci-'));
  try {
    mkdirSync(path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'new'));
    writeFileSync(path.join(dir, 'old/orders.spec'), spec(COUPON + GIFT));
    writeFileSync(path.join(dir, 'new/orders.spec'), spec(GIFT));
    for (const [consumer, body] of EXAMPLES.slice(0, 3)) {
      mkdirSync(path.join(dir, 'shared', consumer, 'orders_examples'), { recursive: true });
      writeFileSync(path.join(dir, 'shared', consumer, 'orders_examples', 'e.json'), JSON.stringify({ 'http-request': { method: 'POST', path: '/orders', body } }));
    }
    const format = async (f: string) => {
      let out = '';
      const code = await run(['compatible', 'old/orders.spec', 'new/orders.spec', '--consumers', 'shared', '--format', f], {
        cwd: dir,
        stdout: (s) => (out += s),
        stderr: () => undefined,
      });
      expect(code).toBe(1);
      return out;
    };
    const line = 'Consumers: breaks `coupon` for billing-ui and mobile (2 of 3 consumers); 1 consumer never sends it';
    const junit = await format('junit');
    expect(junit).toContain(`At: new/orders.spec:7 (was old/orders.spec:7)\n${line}</failure>`);
    expect(junit).toContain('<system-out>Consumers: the change breaks billing-ui, mobile (2 of 3)</system-out>');
    const github = await format('github');
    expect(github).toMatch(
      /^::error file=new\/orders\.spec,line=7,title=accord compatible%3A request-node-removed::.*\(scenario "getOrder"\)\. Consumers: breaks `coupon` for billing-ui and mobile \(2 of 3 consumers\)/m,
    );
    expect(github).toContain('::notice file=new/orders.spec,title=accord compatible%3A consumers::Consumers: the change breaks billing-ui, mobile (2 of 3)');
    const sarif = JSON.parse(await format('sarif')) as { runs: { results: { message: { text: string }; properties: { consumers: string[]; consumerExamples: string[] } }[] }[] };
    const [result] = sarif.runs[0].results;
    expect(result.message.text).toContain(` ${line}`);
    expect(result.properties.consumers).toEqual(['billing-ui', 'mobile']);
    expect(result.properties.consumerExamples).toHaveLength(2);
    const html = await format('html');
    const data = /<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(html)![1];
    const file = (JSON.parse(data) as { files: { consumers: string; findings: { consumers: string }[] }[] }).files[0];
    expect(file.findings[0].consumers).toBe(line);
    expect(file.consumers).toBe('Consumers: the change breaks billing-ui, mobile (2 of 3)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
