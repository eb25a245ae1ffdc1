import { AccordError, InternalError, internalErrorText } from '../../src/errors';

/** The CLI, its process and the stub word a bug one way; a user's AccordError keeps its place in the text. */
describe('internalErrorText', () => {
  test('an InternalError: the one wording, the message, and the stack only where asked', () => {
    const e = new InternalError('unhandled case: x');
    expect(internalErrorText(e)).toBe('internal error (please report it): unhandled case: x');
    expect(internalErrorText(e, { stack: true })).toMatch(/^internal error \(please report it\): InternalError: unhandled case: x\n\s+at /);
  });

  test('what it was doing, and an AccordError that reached an edge as a bug with its place', () => {
    const e = new AccordError('ACCORD_ERR_XML', 'not well-formed', { file: 'a.spec', line: 3 });
    expect(internalErrorText(e, { during: 'answering GET /x' })).toBe('internal error (please report it) answering GET /x: a.spec:3: not well-formed');
  });

  test('a thrown value that is not an Error', () => {
    expect(internalErrorText('boom')).toBe('internal error (please report it): boom');
  });
});
