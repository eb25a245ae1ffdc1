import { X509Certificate, generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

/** A certificate and its private key, PEM. */
export interface TlsPair {
  cert: string;
  key: string;
}

/**
 * A self-signed certificate for a test stub: localhost, 127.0.0.1, ::1 and the host the stub
 * listens on, valid from a day ago for a year. The key is made by Node's crypto (native, fast);
 * node-forge only writes and signs the certificate, which Node cannot do itself.
 */
export function selfSignedCertificate(host: string, serial: Buffer = randomBytes(16)): TlsPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = serialHex(serial);
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now + 365 * 24 * 3600 * 1000);
  const subject = [{ name: 'commonName', value: 'accord stub' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  const names = new Set(['localhost', '127.0.0.1', '::1', host]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...names].filter((n) => n !== '0.0.0.0' && n !== '::').map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  // forge writes CRLF; Node and openssl write LF.
  return { cert: forge.pki.certificateToPem(cert).split('\r\n').join('\n'), key: privateKey };
}

/**
 * A DER INTEGER serial that every TLS stack reads: positive (first bit clear) and minimal (no
 * leading zero byte). OpenSSL refuses a certificate whose serial starts with a zero byte
 * followed by a byte below 0x80 ("illegal padding"), which a random serial hit once in 256 starts.
 */
export function serialHex(bytes: Buffer): string {
  const b = Buffer.from(bytes);
  b[0] = b[0]! & 0x7f || 1;
  return b.toString('hex');
}

/** `AB:CD:…`, as browsers and openssl show it. */
export function fingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}
