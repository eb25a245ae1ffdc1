import { changeRule } from '../rule';

export const requestFieldRequiredAdded = changeRule({
  id: 'request-field-required-added',
  side: 'request',
  kind: 'missing',
  targets: ['field'],
  noMirror: {
    'response-field-required-added': 'form fields and multipart parts are request steps only',
    'request-field-required-removed': 'a field the newer request no longer declares is rejected when sent: that is request-field-removed',
  },
});
