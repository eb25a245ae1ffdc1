import { changeRule } from '../rule';

export const requestFieldRemoved = changeRule({
  id: 'request-field-removed',
  side: 'request',
  kind: 'unexpected',
  targets: ['field'],
  noMirror: {
    'response-field-removed': 'form fields and multipart parts are request steps only',
    'request-field-added': 'every declared field is required, so a new one is request-field-required-added',
  },
});
