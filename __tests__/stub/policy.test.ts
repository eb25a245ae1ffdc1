import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { stubWsSecurity } from '../../src/stub/ws-security';
import { REPO } from './helpers';

/**
 * A stub of a WSDL with WS-Policy checks what each operation's policy asks, with the users of
 * its --ws-security settings and no `use` of its own: zeep (a client that knows nothing of
 * accord) sending a UsernameToken is answered, the same call without one is refused, and an
 * operation whose policy asks nothing is answered without one.
 */
const PYTHON = '/usr/bin/python3';
const POLICY = path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'policy');
const zeep = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import zeep'], { encoding: 'utf8' }).status === 0;
let dir: string;
let perOperation: RunningStub;
let cxf: RunningStub;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-stub-'));
  const env = { ...process.env, ACCORD_TEST_ALICE_PASSWORD: 'wonder land' };
  const wsSecurity = () => stubWsSecurity({ users: { alice: { env: 'ACCORD_TEST_ALICE_PASSWORD' } } }, { env });
  perOperation = await startStub({ contracts: [path.join(POLICY, 'per-operation.wsdl')], log: () => {}, wsSecurity: wsSecurity() });
  cxf = await startStub({ contracts: [path.join(POLICY, 'cxf-username-transport.wsdl')], log: () => {}, wsSecurity: wsSecurity() });
});
afterAll(async () => {
  await Promise.all([perOperation?.close(), cxf?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function runZeep(script: string, wsdlUrl: string): Promise<string> {
  const file = path.join(dir, `zeep-${Math.random().toString(16).slice(2)}.py`);
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn(PYTHON, [file, wsdlUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out));
  });
}

const call = (wsse: string, body: string) => `
import sys, datetime
from zeep import Client
from zeep.wsse.username import UsernameToken
from zeep.wsse.utils import WSU
from zeep.exceptions import Fault
def timestamp():
    now = datetime.datetime.now(datetime.timezone.utc)
    ts = WSU.Timestamp()
    ts.append(WSU.Created(now.strftime('%Y-%m-%dT%H:%M:%SZ')))
    ts.append(WSU.Expires((now + datetime.timedelta(minutes=5)).strftime('%Y-%m-%dT%H:%M:%SZ')))
    return ts
client = Client(sys.argv[1]${wsse ? `, wsse=${wsse}` : ''})
try:
    r = ${body}
    print('OK', r)
except Fault as f:
    print('FAULT', f.code, f.message)
`;

(zeep ? describe : describe.skip)(zeep ? 'zeep against stubs of WSDLs with policies' : 'skipped: python3-zeep not installed', () => {
  it("per operation: Refund's UsernameToken policy is checked, Status (no policy) is answered without a token", async () => {
    const url = `${perOperation.url}/payments?wsdl`;
    const good = await runZeep(call("UsernameToken('alice', 'wonder land')", "client.service.Refund(id='7')"), url);
    expect(good).toMatch(/^OK /m);
    const none = await runZeep(call('', "client.service.Refund(id='7')"), url);
    expect(none).toMatch(/^FAULT .*InvalidSecurity/m);
    const wrong = await runZeep(call("UsernameToken('alice', 'guess')", "client.service.Refund(id='7')"), url);
    expect(wrong).toMatch(/^FAULT .*FailedAuthentication/m);
    const status = await runZeep(call('', "client.service.Status(id='7')"), url);
    expect(status).toMatch(/^OK /m);
  });

  it('CXF-style UsernameToken with HashPassword and IncludeTimestamp: a digest with a Timestamp is answered; a PasswordText token, or no Timestamp, is refused', async () => {
    const url = `${cxf.url}/greeter?wsdl`;
    const good = await runZeep(call("UsernameToken('alice', 'wonder land', use_digest=True, timestamp_token=timestamp())", "client.service.greetMe(name='x')"), url);
    expect(good).toMatch(/^OK /m);
    const text = await runZeep(call("UsernameToken('alice', 'wonder land', timestamp_token=timestamp())", "client.service.greetMe(name='x')"), url);
    expect(text).toMatch(/^FAULT .*InvalidSecurity/m);
    const noTimestamp = await runZeep(call("UsernameToken('alice', 'wonder land', use_digest=True)", "client.service.greetMe(name='x')"), url);
    expect(noTimestamp).toMatch(/^FAULT .*InvalidSecurity/m);
  });
});
