import { FormData, fetch } from 'undici';
import { parseContract } from '../../src/contract/load';
import { boundaryOf } from '../../src/http/match-multipart';
import { startStub, type RunningStub } from '../../src/stub';

/** request-part steps: a multipart/form-data body, as a real client (undici's FormData) sends it. */
const contract = parseContract(
  `Feature: Customer Data API
  Scenario: Upload multipart info
    Given json Customer
      | customerId | (number) |
    When POST /data
    And request-part customer_info (Customer)
    And request-part note (string)
    And request-part file @customers.csv text/csv
    Then status 200
`,
  'multipart.spec',
);

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [contract] });
});
afterAll(() => stub.close());

async function send(form: FormData): Promise<{ status: number; body: string }> {
  const res = await fetch(`${stub.url}/data`, { method: 'POST', body: form });
  return { status: res.status, body: await res.text() };
}

function form(parts: Record<string, string | Blob>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, v, 'customers.csv');
  }
  return f;
}

describe('multipart request parts', () => {
  it('accepts every declared part with content of its type, a file part with any content', async () => {
    const r = await send(form({ customer_info: '{"customerId": 7}', note: 'hello', file: new Blob(['id,name\n1,Ann\n'], { type: 'text/csv' }) }));
    expect(r).toEqual({ status: 200, body: '' });
  });

  it('names a missing part, a part of the wrong type and an undeclared part', async () => {
    const r = await send(form({ customer_info: '{"customerId": "seven"}', extra: 'x', file: new Blob(['x']) }));
    expect(r.status).toBe(400);
    expect(r.body).toContain('REQUEST.PART customer_info.customerId: expected a number, found "seven"');
    expect(r.body).toContain('REQUEST.PART note: expected part note, found no such part');
    expect(r.body).toContain('REQUEST.PART extra: expected no such part, found unexpected part "extra"');
  });

  it('a body that is not multipart is refused with what was expected', async () => {
    const res = await fetch(`${stub.url}/data`, { method: 'POST', body: 'customer_info=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('REQUEST.HEADER Content-Type: expected multipart/form-data with a boundary, found "application/x-www-form-urlencoded"');
  });

  it('reads the boundary quoted or bare', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe('a b;c');
    expect(boundaryOf('multipart/mixed; boundary=abc')).toBeUndefined();
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
  });
});
