import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { importWsdl } from '../../src/wsdl/import';
import { describeImport } from '../../src/wsdl/summary';
import { WSDL_CORPUS, withCorpus } from '../helpers/corpus';

/**
 * WS-Policy read from the WSDL (WS-PolicyAttachment on a binding, a binding operation, its
 * input, inline, by PolicyReference or wsp:PolicyURIs) into the tags the runner and the stub act
 * on; what accord does not support is named with its file and line, and the contract stays valid.
 */
const DIR = path.join(__dirname, '..', 'fixtures', 'wsdl', 'policy');
const fixture = (name: string) => path.join(DIR, name);

function scenarioTags(text: string): Map<string, string[]> {
  const c = parseContract(text, 'imported.spec');
  return new Map(c.scenarios.map((s) => [s.name, [...s.tags].sort()]));
}
const featureLine = (text: string) => text.split('\n').find((l) => l.startsWith('@')) ?? '';

describe('a CXF-style policy by reference on the binding', () => {
  const r = importWsdl(fixture('cxf-username-transport.wsdl'));

  it('asks for HTTPS, a hashed-password UsernameToken and a Timestamp on every scenario, and nothing is left unsupported', () => {
    expect(featureLine(r.text).split(' ').sort()).toEqual(['@https', '@ws-security:PasswordDigest', '@ws-security:Timestamp']);
    expect(scenarioTags(r.text).get('greetMe')).toEqual(['@https', '@ws-security:PasswordDigest', '@ws-security:Timestamp']);
    expect(r.summary.unsupportedPolicy).toEqual([]);
  });

  it('a policy without sp:HashPassword asks for a PasswordText UsernameToken; one on wsp:Optional asks nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-'));
    try {
      const text = readFileSync(fixture('cxf-username-transport.wsdl'), 'utf8');
      writeFileSync(path.join(dir, 'plain.wsdl'), text.replace('<sp:HashPassword/>', ''));
      const plain = importWsdl(path.join(dir, 'plain.wsdl'));
      expect(featureLine(plain.text).split(' ').sort()).toEqual(['@https', '@ws-security:Timestamp', '@ws-security:UsernameToken']);
      writeFileSync(path.join(dir, 'optional.wsdl'), text.replace('<sp:SupportingTokens>', '<sp:SupportingTokens wsp:Optional="true">'));
      const optional = importWsdl(path.join(dir, 'optional.wsdl'));
      expect(featureLine(optional.text).split(' ').sort()).toEqual(['@https', '@ws-security:Timestamp']);
      expect(optional.summary.notes.join('\n')).toMatch(/optional\.wsdl:\d+: sp:SupportingTokens is optional in the policy/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the same policy attached to the port, or named by wsp:PolicyURIs on the portType operation input, applies alike', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-'));
  try {
    const text = readFileSync(fixture('cxf-username-transport.wsdl'), 'utf8').replace('    <wsp:PolicyReference URI="#UsernameTokenOverHttps"/>\n', '');
    writeFileSync(
      path.join(dir, 'port.wsdl'),
      text.replace(
        '<wsdl:port name="GreeterPort" binding="tns:GreeterBinding">',
        '<wsdl:port name="GreeterPort" binding="tns:GreeterBinding"><wsp:PolicyReference URI="#UsernameTokenOverHttps"/>',
      ),
    );
    writeFileSync(
      path.join(dir, 'porttype.wsdl'),
      text.replace('<wsdl:input message="tns:greetMe"/>', '<wsdl:input message="tns:greetMe" wsp:PolicyURIs="#UsernameTokenOverHttps"/>'),
    );
    writeFileSync(path.join(dir, 'none.wsdl'), text);
    for (const f of ['port.wsdl', 'porttype.wsdl']) {
      expect(
        featureLine(importWsdl(path.join(dir, f)).text)
          .split(' ')
          .sort(),
      ).toEqual(['@https', '@ws-security:PasswordDigest', '@ws-security:Timestamp']);
    }
    // A policy no subject names asks nothing.
    expect(featureLine(importWsdl(path.join(dir, 'none.wsdl')).text)).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('a WCF-style policy with alternatives', () => {
  const r = importWsdl(fixture('wcf-alternatives.wsdl'));

  it('takes the alternative accord supports fully (HTTPS + UsernameToken + Timestamp), says so, and adds addressing', () => {
    expect(featureLine(r.text).split(' ').sort()).toEqual(['@https', '@ws-addressing', '@ws-security:Timestamp', '@ws-security:UsernameToken']);
    expect(describeImport(r.summary).join('\n')).toMatch(/wcf-alternatives\.wsdl:\d+: the policy offers 2 alternatives; accord took the second \(the first it supports fully\)/);
  });

  it('with the IssuedToken alternative alone, names each clause it does not support with file and line, and the contract still reads', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-'));
    try {
      const text = readFileSync(fixture('wcf-alternatives.wsdl'), 'utf8');
      const second = text.indexOf('<wsp:All>', text.indexOf('</wsp:All>'));
      const cut = text.slice(0, second) + text.slice(text.indexOf('</wsp:All>', second) + '</wsp:All>'.length);
      writeFileSync(path.join(dir, 'issued.wsdl'), cut);
      const issued = importWsdl(path.join(dir, 'issued.wsdl'));
      const lines = describeImport(issued.summary).filter((l) => l.includes('policy not in the contract'));
      expect(lines).toEqual([
        expect.stringMatching(
          /issued\.wsdl:15: sp:SymmetricBinding \(http:\/\/schemas\.xmlsoap\.org\/ws\/2005\/07\/securitypolicy\) is not supported: a signature with a symmetric/,
        ),
        expect.stringMatching(/issued\.wsdl:18: sp:EndorsingSupportingTokens .* is not supported/),
      ]);
      // Addressing is still read, and nothing the policy asks is claimed: no WS-Security tag at all.
      expect(featureLine(issued.text)).toBe('@ws-addressing');
      expect(() => parseContract(issued.text, 'issued.spec')).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('policies per operation', () => {
  const r = importWsdl(fixture('per-operation.wsdl'));
  // The reply action each WS-Addressing scenario carries (@wsa-action:…) is checked below, apart from the policy's tags.
  const all = scenarioTags(r.text);
  const tags = new Map([...all].map(([name, t]) => [name, t.filter((x) => !x.startsWith('@wsa-action:'))]));

  it('merges the binding, operation and input policies of each operation into its own scenario tags', () => {
    expect(featureLine(r.text)).toBe('@ws-addressing @mtom');
    // With WS-Addressing on, each scenario also names the Action its answer carries (the default pattern here).
    expect(all.get('Pay')).toContain('@wsa-action:http://example.com/payments/Payments/PayResponse');
    // A scenario's tags are its own and the Feature's.
    expect(tags.get('Pay')).toEqual(['@mtom', '@ws-addressing', '@ws-security:Signature', '@ws-security:Timestamp']);
    expect(tags.get('Refund')).toEqual(['@mtom', '@ws-addressing', '@ws-security:UsernameToken']);
    expect(tags.get('Status')).toEqual(['@mtom', '@ws-addressing']);
    expect(tags.get('Audit')).toEqual(['@mtom', '@ws-addressing']);
  });

  it("an operation's fault scenario carries its policy's tags (the same request, answered with the Fault)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-'));
    try {
      const text = readFileSync(fixture('per-operation.wsdl'), 'utf8')
        .replace('<message name="Status">', '<message name="RefundRefused"><part name="p" element="tns:RefundResponse"/></message>\n  <message name="Status">')
        .replace(
          '<operation name="Refund"><input message="tns:Refund"/><output message="tns:RefundResponse"/></operation>',
          '<operation name="Refund"><input message="tns:Refund"/><output message="tns:RefundResponse"/><fault name="refused" message="tns:RefundRefused"/></operation>',
        )
        .replace(
          '<input><soap:body use="literal"/></input>\n      <output><soap:body use="literal"/></output>\n    </operation>\n    <operation name="Status">',
          '<input><soap:body use="literal"/></input>\n      <output><soap:body use="literal"/></output>\n      <fault name="refused"><soap:fault name="refused" use="literal"/></fault>\n    </operation>\n    <operation name="Status">',
        );
      writeFileSync(path.join(dir, 'faults.wsdl'), text);
      const t = scenarioTags(importWsdl(path.join(dir, 'faults.wsdl')).text);
      expect(t.get('Refund fault refused')).toEqual(expect.arrayContaining(['@ws-security:UsernameToken']));
      expect(t.get('Status')).not.toContain('@ws-security:UsernameToken');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a reference to a policy outside the loaded files, never fetching it', () => {
    expect(r.summary.unsupportedPolicy).toEqual([
      expect.stringMatching(
        /per-operation\.wsdl:66: policy reference https:\/\/policies\.example\.com\/audit\.xml#Encrypted not followed \(accord reads only policies in the loaded files and fetches nothing\)/,
      ),
    ]);
  });

  it('a signature policy that also signs a header, or encrypts the body, is named as not supported', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-policy-'));
    try {
      const text = readFileSync(fixture('per-operation.wsdl'), 'utf8').replace(
        '<sp:SignedParts><sp:Body/></sp:SignedParts>',
        '<sp:SignedParts><sp:Body/><sp:Header Name="To" Namespace="http://www.w3.org/2005/08/addressing"/></sp:SignedParts>\n    <sp:EncryptedParts><sp:Body/></sp:EncryptedParts>',
      );
      writeFileSync(path.join(dir, 'enc.wsdl'), text);
      const enc = importWsdl(path.join(dir, 'enc.wsdl'));
      expect(enc.summary.unsupportedPolicy).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/enc\.wsdl:\d+: sp:SignedParts .* not supported: signing To; accord signs the Body and the Timestamp only/),
          expect.stringMatching(/enc\.wsdl:\d+: sp:EncryptedParts .* not supported: accord does not encrypt messages/),
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accord import wsdl prints the clauses it does not support', () => {
    const cli = path.join(__dirname, '..', '..', 'bin', 'accord.js');
    if (!existsSync(path.join(__dirname, '..', '..', 'dist', 'accord-cli.js'))) throw new Error('run npm run build first');
    const out = spawnSync(process.execPath, [cli, 'import', 'wsdl', fixture('per-operation.wsdl'), '-o', '-'], { encoding: 'utf8' });
    expect(out.stdout + out.stderr).toMatch(/policy not in the contract: .*per-operation\.wsdl:66: policy reference/);
  });
});

withCorpus('wsdl-corpus', 'WSDLs from the corpus with policies', () => {
  it("WCF's ServiceFinderQuery: TransportBinding and addressing", () => {
    const r = importWsdl(path.join(WSDL_CORPUS, 'wcf-servicefinder', 'ServiceFinderQuery.wsdl'));
    expect(featureLine(r.text).split(' ').sort()).toEqual(['@https', '@ws-addressing']);
    expect(r.summary.unsupportedPolicy).toEqual([]);
  });

  it("CXF's WS-SecureConversation sample (policies in an imported WSDL): HTTPS and a Timestamp read, the secure conversation token named", () => {
    const r = importWsdl(path.join(WSDL_CORPUS, 'cxf-wssc-circular-import', 'WSSecureConversation.wsdl'));
    expect(featureLine(r.text).split(' ').sort()).toEqual(['@https', '@ws-addressing', '@ws-security:Timestamp']);
    expect(r.summary.unsupportedPolicy).toEqual([expect.stringMatching(/WSSecureConversation_policy\.wsdl:44: sp:EndorsingSupportingTokens .* is not supported/)]);
  });
});
