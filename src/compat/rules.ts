import { endpointText } from '../contract/model';
import { WHERE } from '../pattern/match/mismatch';
import type { Rule } from './model';
import { changeRule } from './rule';
import { protectionAdded } from './protection';

/*
 * The rule table: every rule of `accord compatible`, one entry each, in report order (scenario rules
 * first, then request, then response). A rule's words live beside it in messages.ts, keyed by its id;
 * most rules pick one kind of change from the diff (changeRule), the two scenario rules read the
 * diff's candidates themselves. __tests__/compat/registry.test.ts checks ids, messages and mirrors.
 */

/** Every rule, in report order. */
export const RULES: readonly Rule[] = [
  /** No newer scenario has the older one's method and path: the API is gone. */
  {
    id: 'scenario-removed',
    side: 'scenario',
    level: 'error',
    noMirror: { 'scenario-added': 'adding a scenario or an endpoint is backward compatible (seed 9.1)' },
    check: (d) => (d.candidates.length === 0 ? [{ path: endpointText(d.older.request), older: d.api, newer: 'no scenario with this method and path' }] : []),
  },
  /** The method and path are still there, but no newer scenario answers with the older status. */
  {
    id: 'status-changed',
    side: 'scenario',
    level: 'error',
    check: (d) => {
      if (d.candidates.length === 0 || d.newer) return [];
      const statuses = [...new Set(d.candidates.map((c) => c.response.status))].sort();
      return [{ path: WHERE.responseStatus, older: String(d.older.response.status), newer: statuses.join(', ') }];
    },
  },
  /** The overlap rule: a newer scenario answers requests an older one takes with a status the older contract never gave them. */
  {
    id: 'status-added',
    side: 'scenario',
    level: 'error',
    noMirror: { 'status-removed': 'an older status that no newer scenario answers any more is status-changed' },
    check: (d) =>
      'overlap' in d && d.newer && d.newer.response.status !== d.older.response.status
        ? [{ path: WHERE.responseStatus, older: String(d.older.response.status), newer: String(d.newer.response.status) }]
        : [],
  },
  changeRule({
    id: 'request-derived-type-removed',
    side: 'request',
    kind: 'derived',
    targets: ['node'],
    noMirror: {
      'response-derived-type-removed': 'older clients read every type that remains: compatible',
      'request-derived-type-added': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'request-field-removed',
    side: 'request',
    kind: 'unexpected',
    targets: ['field'],
    noMirror: {
      'response-field-removed': 'form fields and multipart parts are request steps only',
      'request-field-added': 'every declared field is required, so a new one is request-field-required-added',
    },
  }),
  changeRule({
    id: 'request-field-required-added',
    side: 'request',
    kind: 'missing',
    targets: ['field'],
    noMirror: {
      'response-field-required-added': 'form fields and multipart parts are request steps only',
      'request-field-required-removed': 'a field the newer request no longer declares is rejected when sent: that is request-field-removed',
    },
  }),
  changeRule({
    id: 'request-header-made-required',
    side: 'request',
    kind: 'optional',
    targets: ['header'],
    noMirror: {
      'response-header-made-required': 'a response header that becomes required was always allowed: compatible',
      'request-header-made-optional': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'request-header-required-added',
    side: 'request',
    kind: 'missing',
    targets: ['header'],
    noMirror: {
      'response-header-required-added': 'clients ignore response headers they do not know, so a new response header is compatible',
      'request-header-required-removed': 'undeclared request headers are ignored, so dropping a request header is compatible',
    },
  }),
  changeRule({
    id: 'request-node-any-name-removed',
    side: 'request',
    kind: 'name',
    targets: ['node'],
    noMirror: {
      'response-node-any-name-removed': 'older clients read the node by the name it keeps: compatible',
      'request-node-any-name-added': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'request-node-made-non-nillable',
    side: 'request',
    kind: 'nillable',
    targets: ['node'],
    noMirror: {
      'response-node-made-non-nillable': 'older clients accepted the values that remain: compatible',
      'request-node-made-nillable': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'request-node-made-required',
    side: 'request',
    kind: 'optional',
    targets: ['node'],
    noMirror: {
      'response-node-made-required': 'a response node that becomes required was always allowed: compatible',
      'request-node-made-optional': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'request-node-made-single',
    side: 'request',
    kind: 'repeated',
    targets: ['node'],
    noMirror: {
      'response-node-made-single': 'one node is a count older clients already accepted: compatible',
      'request-node-made-repeated': 'older requests send one node, which is still accepted: compatible',
    },
  }),
  changeRule({
    id: 'request-node-order-changed',
    side: 'request',
    kind: 'order',
    targets: ['node'],
  }),
  changeRule({
    id: 'request-node-removed',
    side: 'request',
    kind: 'unexpected',
    targets: ['node'],
    noMirror: {
      'request-node-added': 'adding an optional request node is compatible; adding a required one is request-node-required-added',
    },
  }),
  changeRule({
    id: 'request-node-required-added',
    side: 'request',
    kind: 'missing',
    targets: ['node'],
    noMirror: {
      'response-node-required-added': 'on the response side every added node breaks: response-node-added',
      'request-node-required-removed': 'a request node the newer contract no longer knows is request-node-removed, required or not',
    },
  }),
  changeRule({
    id: 'request-object-closed',
    side: 'request',
    kind: 'open',
    targets: ['node'],
    noMirror: {
      'response-object-closed': 'older clients accepted the keys that remain: compatible',
      'request-object-opened': 'older requests still fit: compatible',
    },
  }),
  /** The newer scenario asks for protection the older did not (HTTPS, a UsernameToken, a digest, a Timestamp, a signature, WS-Addressing): its tags, as a WSDL's policy writes them. */
  {
    id: 'request-protection-added',
    side: 'request',
    level: 'error',
    noMirror: {
      'response-protection-added': 'accord checks no protection of answers (a policy on an output is not read)',
      'request-protection-removed': 'older clients send more than the newer provider asks, which it takes: compatible',
    },
    check: (d) => (d.newer ? protectionAdded(d.older.tags, d.newer.tags) : []),
  },
  changeRule({
    id: 'request-query-removed',
    side: 'request',
    kind: 'unexpected',
    targets: ['query'],
    noMirror: {
      'response-query-removed': 'responses have no query parameters',
      'request-query-added': 'query parameters are optional, so a new one is compatible',
    },
  }),
  changeRule({
    id: 'request-type-changed',
    side: 'request',
    kind: 'type',
    targets: ['value'],
    direction: 'other',
  }),
  changeRule({
    id: 'request-type-narrowed',
    side: 'request',
    kind: 'type',
    targets: ['value'],
    direction: 'narrowed',
    noMirror: {
      'response-type-narrowed': 'older clients accept every value of a narrower type: compatible',
      'request-type-widened': 'older requests still fit: compatible',
    },
  }),
  changeRule({
    id: 'response-derived-type-added',
    side: 'response',
    kind: 'derived',
    targets: ['node'],
    noMirror: {
      'request-derived-type-added': 'older requests still fit: compatible',
      'response-derived-type-removed': 'older clients read every type that remains: compatible',
    },
  }),
  changeRule({
    id: 'response-header-made-optional',
    side: 'response',
    kind: 'optional',
    targets: ['header'],
    noMirror: {
      'request-header-made-optional': 'older requests still fit: compatible',
      'response-header-made-required': 'a response header that becomes required was always allowed: compatible',
    },
  }),
  changeRule({
    id: 'response-header-removed',
    side: 'response',
    kind: 'missing',
    targets: ['header'],
    noMirror: {
      'request-header-removed': 'undeclared request headers are ignored, so dropping a request header is compatible',
      'response-header-added': 'clients ignore response headers they do not know, so a new one is compatible',
    },
  }),
  changeRule({
    id: 'response-node-added',
    side: 'response',
    kind: 'unexpected',
    targets: ['node'],
    noMirror: {
      'request-node-added': 'adding an optional request node is compatible; adding a required one is request-node-required-added',
    },
  }),
  changeRule({
    id: 'response-node-any-name-added',
    side: 'response',
    kind: 'name',
    targets: ['node'],
    noMirror: {
      'request-node-any-name-added': 'older requests still fit: compatible',
      'response-node-any-name-removed': 'older clients read the node by the name it keeps: compatible',
    },
  }),
  changeRule({
    id: 'response-node-made-nillable',
    side: 'response',
    kind: 'nillable',
    targets: ['node'],
    noMirror: {
      'request-node-made-nillable': 'older requests still fit: compatible',
      'response-node-made-non-nillable': 'older clients accepted the values that remain: compatible',
    },
  }),
  changeRule({
    id: 'response-node-made-optional',
    side: 'response',
    kind: 'optional',
    targets: ['node'],
    noMirror: {
      'request-node-made-optional': 'older requests still fit: compatible',
      'response-node-made-required': 'a response node that becomes required was always allowed: compatible',
    },
  }),
  changeRule({
    id: 'response-node-made-repeated',
    side: 'response',
    kind: 'repeated',
    targets: ['node'],
    noMirror: {
      'request-node-made-repeated': 'older requests send one node, which is still accepted: compatible',
      'response-node-made-single': 'one node is a count older clients already accepted: compatible',
    },
  }),
  changeRule({
    id: 'response-node-order-changed',
    side: 'response',
    kind: 'order',
    targets: ['node'],
  }),
  changeRule({
    id: 'response-node-removed',
    side: 'response',
    kind: 'missing',
    targets: ['node'],
  }),
  changeRule({
    id: 'response-object-opened',
    side: 'response',
    kind: 'open',
    targets: ['node'],
    noMirror: {
      'request-object-opened': 'older requests still fit: compatible',
      'response-object-closed': 'older clients accepted the keys that remain: compatible',
    },
  }),
  changeRule({
    id: 'response-type-changed',
    side: 'response',
    kind: 'type',
    targets: ['value'],
    direction: 'other',
  }),
  changeRule({
    id: 'response-type-widened',
    side: 'response',
    kind: 'type',
    targets: ['value'],
    direction: 'widened',
    noMirror: {
      'request-type-widened': 'older requests still fit: compatible',
      'response-type-narrowed': 'older clients accept every value of a narrower type: compatible',
    },
  }),
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));
