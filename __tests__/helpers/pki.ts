import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { serialHex } from '../../src/stub/tls';

export interface Issued {
  cert: string;
  key: string;
  /** The same certificate and key as PKCS#12, under `p12Passphrase`. */
  p12: Buffer;
}

export const p12Passphrase = 'p12-Secret9';

/** A CA made here with node-forge, and the certificates it issues: servers for a name or IP, clients, expired ones. */
export class TestCa {
  readonly pem: string;
  private readonly cert: forge.pki.Certificate;
  private readonly key: string;

  constructor(readonly name = 'accord test CA') {
    const own = keys();
    this.key = own.key;
    this.cert = make(name, undefined, own, [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ]);
    this.pem = pem(this.cert);
  }

  /** A server certificate for `host` (an IP address or a DNS name). */
  server(host = '127.0.0.1', options: { expired?: boolean } = {}): Issued {
    const ip = /^[\d.]+$/.test(host) || host.includes(':');
    return this.issue(
      host,
      [
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [ip ? { type: 7, ip: host } : { type: 2, value: host }] },
      ],
      options,
    );
  }

  /** A client certificate whose subject CN is `cn`. */
  client(cn = 'accord-client', options: { expired?: boolean } = {}): Issued {
    return this.issue(cn, [{ name: 'extKeyUsage', clientAuth: true }], options);
  }

  private issue(cn: string, ext: object[], options: { expired?: boolean }): Issued {
    const own = keys();
    const cert = make(cn, { cert: this.cert, key: this.key }, own, ext, options.expired);
    const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(own.key), [cert, this.cert], p12Passphrase, { algorithm: '3des' });
    return { cert: pem(cert), key: own.key, p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary') };
  }
}

function keys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { key: privateKey, publicKey };
}

function make(cn: string, issuer: { cert: forge.pki.Certificate; key: string } | undefined, own: { key: string; publicKey: string }, ext: object[], expired = false) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(own.publicKey);
  cert.serialNumber = serialHex(randomBytes(16));
  const now = Date.now();
  cert.validity.notBefore = new Date(now - (expired ? 48 : 1) * 3600_000);
  cert.validity.notAfter = new Date(now + (expired ? -24 : 24) * 3600_000);
  cert.setSubject([{ name: 'commonName', value: cn }]);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : [{ name: 'commonName', value: cn }]);
  cert.setExtensions(ext);
  cert.sign(forge.pki.privateKeyFromPem(issuer?.key ?? own.key), forge.md.sha256.create());
  return cert;
}

const pem = (c: forge.pki.Certificate) => forge.pki.certificateToPem(c).split('\r\n').join('\n');
