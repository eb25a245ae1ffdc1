import { X509Certificate } from 'node:crypto';
import type { Server } from 'node:https';
import type { TLSSocket } from 'node:tls';

/**
 * Mutual TLS for the stub: clients are asked for a certificate, verified against `ca`. Required
 * (the default): a client without one is refused in the handshake (TLS alert
 * certificate_required), one with a certificate `ca` did not sign, or an expired one, right after
 * it (Node's server closes without an alert). Optional: a client without one is served, one with
 * a certificate that does not verify is still refused. Either way the journal records which
 * certificate each request came with (`clientCertificate`), and each refusal is one log line.
 */
export interface ClientCertificates {
  /** The CA certificate(s), PEM, that sign the clients' certificates. */
  ca: string;
  /** Default true. */
  required?: boolean;
}

/** The client certificate a request came with, as the journal records it; `null` when the client gave none. */
export interface PresentedCertificate {
  /** `CN=accord-client, O=Acme`, in the certificate's order. */
  subject: string;
  issuer: string;
  /** SHA-256, `AB:CD:…`. */
  fingerprint256: string;
}

/** The https.Server options that ask for client certificates. */
export function clientCertificateOptions(c: ClientCertificates): { ca: string; requestCert: true; rejectUnauthorized: boolean } {
  return { ca: c.ca, requestCert: true, rejectUnauthorized: c.required !== false };
}

/** Logs each client the TLS layer refused, one line, and (optional mode) refuses a certificate that does not verify. */
export function watchClientCertificates(server: Server, c: ClientCertificates, log: (line: string) => void): void {
  // Node's server has closed a connection whose certificate does not verify before saying so: its address and certificate are gone.
  const say = (socket: TLSSocket, why: string) => log(`accord stub: TLS: refused a client${socket.remoteAddress ? ` at ${socket.remoteAddress}` : ''}: ${why}`);
  server.on('tlsClientError', (e: NodeJS.ErrnoException, socket: TLSSocket) => {
    if (e.code === 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE') say(socket, 'no client certificate (the stub requires one, --tls-client-ca)');
    else if (socket.authorizationError) say(socket, refusedCertificate(socket));
    socket.destroy();
  });
  if (c.required !== false) return;
  // Before the HTTP server reads the connection: a refused client's request is never answered.
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    if (socket.authorized || presented(socket) === null) return;
    say(socket, refusedCertificate(socket));
    socket.destroy();
  });
}

function refusedCertificate(socket: TLSSocket): string {
  const cert = socket.destroyed ? null : presented(socket);
  const whose = cert ? ` (${cert.subject}, issued by ${cert.issuer})` : '';
  const code = String(socket.authorizationError);
  return `the client certificate${whose} ${VERIFY_WORDS[code] ?? 'does not verify'} (${code})`;
}

/** OpenSSL's verification codes a client certificate most often gets, in words. */
const VERIFY_WORDS: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is not signed by --tls-client-ca',
  UNABLE_TO_GET_ISSUER_CERT: 'is not signed by --tls-client-ca',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is not signed by --tls-client-ca',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed, not signed by --tls-client-ca',
  SELF_SIGNED_CERT_IN_CHAIN: 'is not signed by --tls-client-ca',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
  CERT_SIGNATURE_FAILURE: 'has a signature that does not verify',
};

const seen = new WeakMap<TLSSocket, PresentedCertificate | null>();

/** The certificate the client of this connection presented, or null; read once per connection. */
export function presented(socket: TLSSocket): PresentedCertificate | null {
  let known = seen.get(socket);
  if (known !== undefined) return known;
  const raw = socket.getPeerCertificate?.()?.raw;
  if (!raw || raw.length === 0) known = null;
  else {
    const x = new X509Certificate(raw);
    known = { subject: names(x.subject), issuer: names(x.issuer), fingerprint256: x.fingerprint256 };
  }
  seen.set(socket, known);
  return known;
}

const names = (dn: string) => dn.split('\n').join(', ');
