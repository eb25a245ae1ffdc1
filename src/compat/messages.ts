/**
 * What each rule says, kept apart from the rule code so it can be documented
 * and searched. `sentence` fills {path} {name} {older} {newer}; the report puts
 * "<api>: " in front. `reason` says who it breaks and why. `meaning` is the
 * one-line entry of the rule table in docs/compatibility.md.
 */
export interface RuleMessage {
  meaning: string;
  sentence: string;
  reason: string;
}

export const MESSAGES: Readonly<Record<string, RuleMessage>> = {
  'scenario-removed': {
    meaning: 'No newer scenario has the method and path of an older one.',
    sentence: 'this API exists in the older contract but not in the newer one ({newer})',
    reason: 'consumers of the older contract still call it',
  },
  'status-changed': {
    meaning: 'The method and path remain, but no newer scenario answers with the older status.',
    sentence: 'RESPONSE.STATUS was {older}, now {newer}',
    reason: 'consumers of the older contract expect the older status',
  },
  'status-added': {
    meaning: 'A newer scenario answers requests an older scenario takes with a status the older contract never gave them (the overlap rule).',
    sentence: 'RESPONSE.STATUS was {older}, now also {newer}',
    reason: 'consumers of the older contract do not expect that status for those requests',
  },
  'request-node-removed': {
    meaning: 'A request node, attribute or JSON key the older contract accepted is rejected by the newer one.',
    sentence: '{path} is no longer accepted in the request (was {older})',
    reason: 'requests written for the older contract may carry it and would now be rejected',
  },
  'request-protection-added': {
    meaning:
      'The newer request must carry protection the older did not: HTTPS, a WS-Security UsernameToken (or its digest), Timestamp or signature, or WS-Addressing (tags, as a WSDL policy imports).',
    sentence: 'the request must now have {newer} ({older})',
    reason: 'clients written for the older contract do not send it, and a provider asking for it refuses them',
  },
  'request-query-removed': {
    meaning: 'A query parameter the older contract declared is not declared any more (undeclared parameters are rejected).',
    sentence: '{path} is no longer accepted (was {older})',
    reason: 'requests written for the older contract may send it and would now be rejected',
  },
  'request-node-required-added': {
    meaning: 'The newer request requires a node, attribute or JSON key the older one did not have.',
    sentence: '{path} is a new required part of the request: {newer}',
    reason: 'requests written for the older contract do not have it',
  },
  'request-field-required-added': {
    meaning: 'The newer request requires a form field or multipart part the older one did not declare (both are required as declared).',
    sentence: '{path} is a new required {newer}',
    reason: 'requests written for the older contract do not send it',
  },
  'request-derived-type-removed': {
    meaning: 'A request node no longer takes an instance of a type it took (a derived type named by xsi:type, or the declared type itself).',
    sentence: '{path} no longer takes {older}; it takes {newer}',
    reason: 'requests written for the older contract may send that type and would now be rejected',
  },
  'request-field-removed': {
    meaning: 'A form field or multipart part the older request declared is not declared any more (undeclared ones are rejected).',
    sentence: '{path} is no longer accepted (was {older})',
    reason: 'requests written for the older contract send it and would now be rejected',
  },
  'request-header-required-added': {
    meaning: 'The newer request requires a header the older one did not declare.',
    sentence: '{path} is a new required request header: {newer}',
    reason: 'requests written for the older contract do not send it',
  },
  'request-node-made-required': {
    meaning: 'A request node, attribute, key or value that was optional is required.',
    sentence: '{path} was optional, now required',
    reason: 'requests written for the older contract may leave it out',
  },
  'request-header-made-required': {
    meaning: 'A request header that was optional is required.',
    sentence: '{path} was optional, now required',
    reason: 'requests written for the older contract may leave it out',
  },
  'request-node-made-single': {
    meaning: 'A request node that could repeat may now occur only once.',
    sentence: '{path} could be repeated, now at most one is accepted',
    reason: 'requests written for the older contract may repeat it',
  },
  'request-node-order-changed': {
    meaning: 'The request child nodes must come in an order older requests do not follow.',
    sentence: '{path}: child nodes were {older}, now {newer} (order is part of the contract)',
    reason: 'requests written for the older contract send the nodes in the older order',
  },
  'request-node-any-name-removed': {
    meaning: 'A request node that was taken under any name (specmatic_name="any") must now have its own name.',
    sentence: '{path} was {older}, now it must be {newer}',
    reason: 'requests written for the older contract may name it otherwise (a SOAP-encoded array member named after its type)',
  },
  'request-node-made-non-nillable': {
    meaning: 'A request node that could be xsi:nil may not be nil any more.',
    sentence: '{path} was nillable, now it must have a value',
    reason: 'requests written for the older contract may send it as xsi:nil',
  },
  'request-object-closed': {
    meaning: 'A request JSON object that allowed further keys ("...") no longer does.',
    sentence: '{path} allowed further keys, now only the keys listed',
    reason: 'requests written for the older contract may carry further keys',
  },
  'request-type-narrowed': {
    meaning: 'A request value accepts only part of what it accepted (e.g. (string) to (number), fewer enum values).',
    sentence: '{path} was {older}, now {newer}',
    reason: 'the newer contract rejects some requests the older one accepted',
  },
  'request-type-changed': {
    meaning: 'A request value changed to a type unrelated to the older one: neither includes the other (e.g. (number) to (boolean)).',
    sentence: '{path} was {older}, now {newer}',
    reason: 'requests written for the older contract would be rejected',
  },
  'response-derived-type-added': {
    meaning:
      'A response node may now be an instance of a type the older contract did not list (a new derived type named by xsi:type, or the declared type of a base that was abstract).',
    sentence: '{path} may now be {newer}; the older contract allowed {older}',
    reason: 'clients of the older contract do not know that type and may fail to read it',
  },
  'response-node-added': {
    meaning: 'The newer response may have a node, attribute or JSON key the older one did not.',
    sentence: '{path} is new in the response: {newer}',
    reason: 'a strict reader of the older contract rejects a node it does not know',
  },
  'response-node-removed': {
    meaning: 'A response node, attribute or JSON key the older contract promised is gone.',
    sentence: '{path} is no longer in the response (was {older})',
    reason: 'clients of the older contract expect it',
  },
  'response-header-removed': {
    meaning: 'A response header the older contract promised is gone.',
    sentence: '{path} is no longer in the response (was {older})',
    reason: 'clients of the older contract expect it',
  },
  'response-node-made-optional': {
    meaning: 'A response node, attribute, key or value that was always there may now be missing (or null).',
    sentence: '{path} was required, now optional',
    reason: 'clients of the older contract expect it in every response',
  },
  'response-header-made-optional': {
    meaning: 'A response header that was always sent may now be missing.',
    sentence: '{path} was required, now optional',
    reason: 'clients of the older contract expect it in every response',
  },
  'response-node-made-repeated': {
    meaning: 'A response node that occurred at most once may now repeat.',
    sentence: '{path} occurred at most once, now it may be repeated',
    reason: 'clients of the older contract read a single node',
  },
  'response-node-order-changed': {
    meaning: 'The response child nodes may come in an order the older contract does not allow.',
    sentence: '{path}: child nodes were {older}, now {newer} (order is part of the contract)',
    reason: 'clients of the older contract read the nodes in the older order',
  },
  'response-node-any-name-added': {
    meaning: 'A response node may now come under any name (specmatic_name="any").',
    sentence: '{path} was {older}, now it may come {newer}',
    reason: 'clients of the older contract find the node by its name',
  },
  'response-node-made-nillable': {
    meaning: 'A response node may now be xsi:nil.',
    sentence: '{path} always had a value, now it may be xsi:nil',
    reason: 'clients of the older contract expect a value',
  },
  'response-object-opened': {
    meaning: 'A response JSON object may now carry keys beyond the listed ones ("...").',
    sentence: '{path} had only the keys listed, now it may carry further keys',
    reason: 'a strict reader of the older contract rejects keys it does not know',
  },
  'response-type-widened': {
    meaning: 'A response value may now be something the older type did not allow (e.g. (number) to (string), more enum values).',
    sentence: '{path} was {older}, now {newer}',
    reason: 'clients of the older contract cannot read every value the newer one allows',
  },
  'response-type-changed': {
    meaning: 'A response value changed to a type unrelated to the older one: neither includes the other (e.g. a number became a JSON object).',
    sentence: '{path} was {older}, now {newer}',
    reason: 'clients of the older contract cannot read the new value',
  },
};

export function renderSentence(template: string, values: { path: string; name?: string; older: string; newer: string }): string {
  return template.replace(/\{(path|name|older|newer)\}/g, (_, k: keyof typeof values) => values[k] ?? '');
}
