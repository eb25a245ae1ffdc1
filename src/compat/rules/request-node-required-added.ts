import { changeRule } from '../rule';

export const requestNodeRequiredAdded = changeRule({
  id: 'request-node-required-added',
  side: 'request',
  kind: 'missing',
  targets: ['node'],
  noMirror: {
    'response-node-required-added': 'on the response side every added node breaks: response-node-added',
    'request-node-required-removed': 'a request node the newer contract no longer knows is request-node-removed, required or not',
  },
});
