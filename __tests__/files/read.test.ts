import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { FILE_LIMITS, readInputBytes, readInputText } from '../../src/files';
import { startStub } from '../../src/stub';
import { childEnv, plain } from '../helpers/child-env';
import { accordErrorOf } from '../helpers/accord-error';

/**
 * Every file accord reads goes through one reader: regular files only, read
 * up to a limit counted in bytes actually read. Real FIFOs (mkfifo), real
 * devices, real /proc files and real symlinks; the CLI runs as a child with a
 * time-out, so a reader that blocks fails the test instead of hanging it.
 */
const BIN = path.join(__dirname, '..', '..', 'bin', 'accord.js');
const unix = process.platform !== 'win32';
const itUnix = unix ? it : it.skip;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-read-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const p = path.join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

function accord(...args: string[]): { code: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: childEnv({ FOO_SECRET: 'hunter2-secret-value' }), timeout: 10_000 });
  return { code: r.status, stdout: plain(r.stdout ?? ''), stderr: plain(r.stderr ?? ''), ms: Date.now() - started };
}

const thrown = (f: () => unknown): AccordError => accordErrorOf(f);

const CONTRACT = 'Feature: f\n  Scenario: s\n    When GET /a\n    Then status 200\n';

const wsdlIncluding = (location: string) => `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t"><xs:include schemaLocation="${location}"/>
    <xs:element name="ping"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="in"><part name="p" element="tns:ping"/></message>
  <message name="out"><part name="p" element="tns:pong"/></message>
  <portType name="PT"><operation name="ping"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:PT">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="ping"><soap:operation soapAction="urn:ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
</definitions>
`;

describe('only regular files are read', () => {
  itUnix('a WSDL including /dev/zero, /dev/urandom or a FIFO imports at once (--allow-unresolved), the include reported unresolved', () => {
    const pipe = fifo('pipe.xsd');
    for (const [name, location, kind] of [
      ['zero.wsdl', '/dev/zero', 'a device'],
      ['random.wsdl', '/dev/urandom', 'a device'],
      ['fifo.wsdl', pipe, 'a named pipe (FIFO)'],
    ]) {
      writeFileSync(path.join(dir, name), wsdlIncluding(location));
      // Accepted as partial (--allow-unresolved): what is tested is that the include is never read, not waited on.
      const r = accord('import', 'wsdl', name, '-o', '-', '--allow-unresolved');
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(15_000);
      expect(r.stderr).toContain(`${name}:4: import ${location} not loaded (${location} is ${kind}, not a WSDL or XML Schema: accord reads only regular files)`);
    }
  });

  itUnix('accord stub on a WSDL including a FIFO starts instead of waiting for a writer', async () => {
    writeFileSync(path.join(dir, 'fifo.wsdl'), wsdlIncluding(fifo('p.xsd')));
    // A child process: a reader that blocks would block this test's own thread.
    const child = spawn(process.execPath, [BIN, 'stub', 'fifo.wsdl', '--port', '0', '--allow-unresolved'], { cwd: dir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 15_000);
      child.stdout.on('data', () => {
        if (out.includes('listening on')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    child.kill('SIGKILL');
    expect(listening).toBe(true);
  });

  itUnix('a contract, a WSDL, a log or an example file that is a FIFO or a device is refused by name, exit 2', () => {
    fifo('pipe.spec');
    fifo('pipe.wsdl');
    fifo('pipe.log');
    const cases: [string[], string][] = [
      [['stub', 'pipe.spec'], 'accord stub: pipe.spec is a named pipe (FIFO), not a contract: accord reads only regular files'],
      [['stub', '/dev/zero'], 'accord stub: /dev/zero is a device, not a contract: accord reads only regular files'],
      [['import', 'wsdl', 'pipe.wsdl', '-o', '-'], 'is a named pipe (FIFO), not a WSDL or XML Schema: accord reads only regular files'],
      [['import', 'wsdl', '/dev/urandom', '-o', '-'], 'accord import wsdl: /dev/urandom is a device, not a WSDL or XML Schema: accord reads only regular files'],
      [['import', 'log', 'pipe.log', '-o', '-'], 'accord import log: pipe.log is a named pipe (FIFO), not a log: accord reads only regular files'],
      [['import', 'log', '/dev/zero', '-o', '-'], 'accord import log: /dev/zero is a device, not a log: accord reads only regular files'],
      [['compatible', 'pipe.spec', 'pipe.spec'], 'accord compatible: pipe.spec is a named pipe (FIFO), not a contract: accord reads only regular files'],
    ];
    for (const [args, message] of cases) {
      const r = accord(...args);
      expect(r.stderr).toContain(message);
      expect(r.code).toBe(2);
    }
  });

  itUnix('an example file that is a FIFO is refused, the stub does not wait for a writer', () => {
    writeFileSync(path.join(dir, 'api.spec'), CONTRACT);
    mkdirSync(path.join(dir, 'api_examples'));
    execFileSync('mkfifo', [path.join(dir, 'api_examples', 'one.json')]);
    const r = accord('stub', 'api.spec', '--port', '0');
    expect(r.stderr).toContain('api_examples/one.json is a named pipe (FIFO), not a example file: accord reads only regular files');
    expect(r.code).toBe(2);
  });

  itUnix('a log given as /dev/stdin is refused; "-" still reads standard input', () => {
    const viaPath = spawnSync(process.execPath, [BIN, 'import', 'log', '/dev/stdin', '-o', '-'], { cwd: dir, input: 'x\n', encoding: 'utf8', env: childEnv(), timeout: 10_000 });
    expect(plain(viaPath.stderr)).toMatch(/\/dev\/stdin is (a named pipe \(FIFO\)|a device|a socket), not a log: accord reads only regular files/);
    expect(viaPath.status).toBe(2);
    const log = readFileSync(path.join(__dirname, '..', 'fixtures', 'logs', 'spring-ws.log'), 'utf8');
    const viaDash = spawnSync(process.execPath, [BIN, 'import', 'log', '-', '-o', '-'], { cwd: dir, input: log, encoding: 'utf8', env: childEnv(), timeout: 10_000 });
    expect(plain(viaDash.stdout)).toContain('Feature:');
    expect(viaDash.status).toBe(0);
  });

  it('a folder given as a contract is named as a folder', () => {
    mkdirSync(path.join(dir, 'x.spec'));
    expect(thrown(() => loadContract(path.join(dir, 'x.spec'))).message).toMatch(/x\.spec is a folder, not a contract/);
  });
});

describe('what is read is bounded by bytes actually read', () => {
  itUnix('/proc files report a size of 0: the limit still holds', () => {
    const e = thrown(() => readInputBytes('/proc/self/status', { what: 'contract', limit: 16 }));
    expect(e.code).toBe('ACCORD_ERR_LIMIT');
    expect(e.message).toBe('/proc/self/status is larger than 16 bytes, the limit for a contract');
    // Under the limit, a size-0 /proc file is read whole.
    expect(readInputBytes('/proc/self/status', { what: 'file', limit: 1 << 20 }).toString('utf8')).toMatch(/^Name:/);
  });

  it('a contract over the limit is refused in MB', () => {
    const big = path.join(dir, 'big.spec');
    writeFileSync(big, Buffer.alloc(FILE_LIMITS.contractBytes + 1, 0x20));
    const e = thrown(() => loadContract(big));
    expect(e.code).toBe('ACCORD_ERR_LIMIT');
    expect(e.message).toBe(`${big} is larger than 16 MB (16777216 bytes), the limit for a contract`);
  });
});

describe('messages a user can act on', () => {
  it('a missing contract: "no such file: <path>", no errno, the path once', () => {
    const r = accord('stub', 'contracts/nope.spec');
    expect(r.stderr).toBe('accord stub: no such file: contracts/nope.spec\n');
    expect(r.code).toBe(2);
  });

  it('a binary .spec, WSDL or log gets one line saying it is binary, never its bytes', () => {
    const bytes = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'), Buffer.from('\x1b[2J\x1b]0;pwned\x07', 'latin1'), Buffer.alloc(64, 0)]);
    for (const name of ['image.spec', 'image.wsdl', 'image.log']) writeFileSync(path.join(dir, name), bytes);
    const cases: [string[], string][] = [
      [['stub', 'image.spec'], 'accord stub: image.spec is binary (byte 8 is a NUL byte), not a contract\n'],
      [['import', 'wsdl', 'image.wsdl', '-o', '-'], `accord import wsdl: ${path.join(dir, 'image.wsdl')} is binary (byte 8 is a NUL byte), not a WSDL or XML Schema\n`],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 10_000 });
      // Compared raw: no escape sequence from the file may reach the terminal.
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
    }
    const log = spawnSync(process.execPath, [BIN, 'import', 'log', 'image.log', '-o', '-'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 10_000 });
    expect(log.stderr).toMatch(/^accord import log: image\.log is binary \(byte \d+ is a control character\), not a text log/);
    expect(log.stderr).not.toContain('\x1b');
  });

  it('a UTF-16 contract is told to be saved as UTF-8', () => {
    const file = path.join(dir, 'u16.spec');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CONTRACT, 'utf16le')]));
    expect(thrown(() => readInputText(file, { what: 'contract', limit: 1 << 20, shown: 'u16.spec' })).message).toBe('u16.spec is UTF-16 text; save the contract as UTF-8');
  });

  it('a dangling symlink given as a contract names where it points', () => {
    symlinkSync('gone.spec', path.join(dir, 'link.spec'));
    const r = accord('stub', 'link.spec');
    expect(r.stderr).toBe('accord stub: link.spec is a symlink to gone.spec, which does not exist\n');
    expect(r.code).toBe(2);
  });
});

describe('secrets behind a contract path are not printed', () => {
  itUnix('a contract that is a link to /proc/self/environ: refused as binary, the environment never printed', () => {
    symlinkSync('/proc/self/environ', path.join(dir, 'env.spec'));
    const r = accord('stub', 'env.spec');
    expect(r.stderr).toBe('accord stub: env.spec is binary (byte 0 is a NUL byte), not a contract\n'.replace('byte 0', r.stderr.match(/byte (\d+)/)?.[0] ?? 'byte 0'));
    expect(r.stderr).not.toContain('hunter2');
    expect(r.code).toBe(2);
  });

  it('a link to a text file of secrets: each line Gherkin quotes is a short escaped excerpt', () => {
    const secret = `aws_secret_access_key=${'S'.repeat(200)}\x1b[2J`;
    writeFileSync(path.join(dir, 'credentials'), `[default]\n${secret}\n`);
    symlinkSync('credentials', path.join(dir, 'creds.spec'));
    const r = spawnSync(process.execPath, [BIN, 'stub', 'creds.spec'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 10_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain('S'.repeat(100));
    expect(r.stderr).not.toContain('\x1b');
    for (const line of r.stderr.split('\n')) expect(line.length).toBeLessThan(400);
  });

  it('the excerpt keeps short lines readable', () => {
    writeFileSync(path.join(dir, 'typo.spec'), 'Feature: typo\n  Scenario: a\n    When GET /x\n    Then status 200\n  Feature: again\n');
    const r = accord('stub', 'typo.spec');
    expect(r.stderr).toContain('"Feature: again" starts a second Feature');
    expect(existsSync(path.join(dir, 'typo.spec'))).toBe(true);
  });
});

describe('symlinked contract files in a stub folder', () => {
  itUnix('are served like the files they point to (they were skipped without a word)', async () => {
    mkdirSync(path.join(dir, 'shared'));
    mkdirSync(path.join(dir, 'contracts'));
    writeFileSync(path.join(dir, 'shared', 'api.spec'), CONTRACT);
    symlinkSync('../shared/api.spec', path.join(dir, 'contracts', 'api.spec'));
    const stub = await startStub({ contracts: path.join(dir, 'contracts'), port: 0 });
    try {
      const res = await fetch(`${stub.url}/a`);
      expect(res.status).toBe(200);
    } finally {
      await stub.close();
    }
  });
});
