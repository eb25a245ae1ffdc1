import type { TestCase } from '../contract/model';
import { AccordError } from '../errors';
import type { HttpRequest, HttpResponse } from '../http/message';
import { addWsSecurity, tokensOfTags, wantsHttps, unknownSecurityTags, WS_SECURITY_TOKENS, type WsSecurityToken, type WsSecurityWrite } from '../http/ws-security';
import { tokensFor } from '../http/ws-security-settings';
import { addAddressing, addressingOf, wantsAddressing } from '../http/ws-addressing';
import { REDACTED } from '../http/redact';
import { parseXmlOrUndefined } from '../xml/parse';
import { base64Elements, packXop } from '../http/xop-write';

/** A contract tag: send the request as MTOM/XOP (the importer writes it when the WSDL's policy asks for MTOM). */
export const MTOM_TAG = '@mtom';
import type { Mismatch } from '../pattern/match/mismatch';
import { DEFAULT_TTL_SECONDS, type RunnerWsSecurity, type WsRunnerConfig } from './ws-config';

/**
 * What the runner does to a SOAP request on its way out, beyond the contract: WS-Security
 * (a fresh token for every request), and the check it makes of the answer. Worked out per
 * case; a case whose contract asks for nothing gets the request unchanged.
 */
export interface Outgoing {
  /** The request as it goes on the wire. */
  request: HttpRequest;
  /** The request as reports show it: passwords taken out. */
  shown: HttpRequest;
  /** Mismatches of the answer beyond the contract's (a missing wsa:RelatesTo). */
  check?: (res: HttpResponse) => Mismatch[];
}

/** How a negative test breaks WS-Security on purpose. */
export type SecurityBreak = 'missing' | 'wrong-digest' | 'expired-timestamp';

const NONE: WsRunnerConfig = { addressing: false, mtom: false };

/** `ws` undefined: no settings, but what the contract's own tags ask for (`@ws-addressing`, `@mtom`) is still done. */
export function prepareOutgoing(tc: TestCase, req: HttpRequest, ws: WsRunnerConfig = NONE, at: { url: string }, broken?: SecurityBreak): Outgoing {
  let request = req;
  let check: Outgoing['check'];
  // A WS-SecurityPolicy TransportBinding: the provider takes the request over TLS only, and a test over plain HTTP would check something else.
  if (wantsHttps(tc.scenario.tags) && !at.url.toLowerCase().startsWith('https:'))
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `the contract asks for HTTPS (@https, the WSDL's sp:TransportBinding) and the request would go to ${at.url.slice(0, 200)}: set testEnvironmentOptions.accord.baseUrl to the provider's https:// address`,
    );
  if (ws.addressing || wantsAddressing(tc.scenario.tags)) {
    const addressed = addAddressing(request, at.url);
    request = { ...request, body: addressed.body };
    if (addressed.messageId) check = (res) => relatesTo(res, addressed.messageId!);
  }
  const misspelt = unknownSecurityTags(tc.scenario.tags);
  if (misspelt.length > 0)
    throw new AccordError('ACCORD_ERR_USAGE', `unknown WS-Security tag ${misspelt.join(', ')}; the tags are ${WS_SECURITY_TOKENS.map((t) => `@ws-security:${t}`).join(', ')}`);
  const tokens = securityTokens(tc, ws);
  if (tokens.length > 0 && broken !== 'missing') request = { ...request, body: addWsSecurity(request.body, securityFor(tokens, ws, broken)) };
  const shown = request === req ? req : { ...request, body: redactPasswords(request.body) };
  if (ws.mtom || tc.scenario.tags.some((t) => t.toLowerCase() === MTOM_TAG)) {
    const packed = packXop(request.body, base64Elements(tc.scenario.request.body, tc.scenario.scope), request.headers['content-type'] ?? 'text/xml; charset=utf-8');
    if (packed) {
      const headers = { ...request.headers, 'content-type': packed.contentType };
      return { request: { ...request, headers, rawBody: packed.body }, shown: { ...shown, headers }, check };
    }
  }
  return { request, shown, check };
}

/** The answer must say which request it answers (WS-Addressing's RelatesTo). */
function relatesTo(res: HttpResponse, messageId: string): Mismatch[] {
  const root = parseXmlOrUndefined(res.body);
  if (!root) return [];
  const got = addressingOf(root).get('RelatesTo');
  if (got === messageId) return [];
  return [
    {
      path: 'RESPONSE.BODY/Envelope/Header/RelatesTo',
      expected: `wsa:RelatesTo ${messageId} (the request's wsa:MessageID)`,
      actual: got === undefined ? 'no wsa:RelatesTo header' : `wsa:RelatesTo ${got}`,
    },
  ];
}

/** The tokens a case asks for (for the negative tests it gets). */
export function securityTokens(tc: TestCase, ws: WsRunnerConfig): WsSecurityToken[] {
  // Without settings a contract's own tags still ask: the case then fails saying what to set, rather than sending an unsecured request.
  return ws.wsSecurity ? tokensFor(tc.scenario, ws.wsSecurity.rules) : tokensOfTags(tc.scenario.tags);
}

function securityFor(tokens: WsSecurityToken[], ws: WsRunnerConfig, broken?: SecurityBreak): WsSecurityWrite {
  // A Timestamp needs no settings: without any, it is written with the default lifetime (wsSecurity.timestampTtlSeconds sets another).
  const c = ws.wsSecurity ?? (tokens.every((t) => t === 'Timestamp') ? ({ timestampTtlSeconds: DEFAULT_TTL_SECONDS } as RunnerWsSecurity) : undefined);
  if (!c)
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `the contract asks for WS-Security (${tokens.join(', ')}): set testEnvironmentOptions.accord.wsSecurity (username, password: { env: "NAME" }; certificate and privateKey for a Signature)`,
    );
  const out: WsSecurityWrite = {};
  const needs = (t: WsSecurityToken) => tokens.includes(t);
  if (needs('UsernameToken') || needs('PasswordDigest')) {
    if (c.username === undefined || c.password === undefined)
      throw new AccordError(
        'ACCORD_ERR_USAGE',
        'the contract asks for a WS-Security UsernameToken: set wsSecurity.username and wsSecurity.password ({ env: "NAME" }) in testEnvironmentOptions.accord',
      );
    out.username = { name: c.username, password: c.password, digest: needs('PasswordDigest') };
  }
  if (needs('Timestamp') || needs('Signature')) out.timestampTtlSeconds = c.timestampTtlSeconds;
  if (needs('Signature')) {
    if (!c.signature)
      throw new AccordError(
        'ACCORD_ERR_USAGE',
        'the contract asks for a WS-Security Signature: set wsSecurity.certificate and wsSecurity.privateKey (PEM files) in testEnvironmentOptions.accord',
      );
    out.signature = c.signature;
  }
  if (broken === 'wrong-digest') out.breakDigest = true;
  if (broken === 'expired-timestamp') out.expiredTimestamp = true;
  return out;
}

/** The text of every wsse:Password element replaced: a report or a log never shows a password (a digest is as good as one to a replayer). */
export function redactPasswords(body: string): string {
  let out = '';
  let from = 0;
  let at = body.indexOf('Password', from);
  while (at >= 0) {
    const lt = body.lastIndexOf('<', at);
    const before = body[at - 1];
    const after = body[at + 8];
    const tagEnd = body.indexOf('>', at);
    const isStartTag =
      lt >= from &&
      at - lt <= 64 &&
      (before === ':' || before === '<') &&
      (after === '>' || after === ' ' || after === '\t' || after === '\n') &&
      body[lt + 1] !== '/' &&
      !/[\s>]/.test(body.slice(lt + 1, at));
    if (isStartTag && tagEnd >= 0 && body[tagEnd - 1] !== '/') {
      const close = body.indexOf('<', tagEnd);
      if (close < 0) break;
      out += `${body.slice(from, tagEnd + 1)}${REDACTED}`;
      from = close;
    }
    at = body.indexOf('Password', Math.max(at + 8, from));
  }
  return out + body.slice(from);
}
