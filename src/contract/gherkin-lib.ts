/**
 * The parts of @cucumber/gherkin and @cucumber/messages accord uses, in one
 * module: gherkin.ts loads it on the first parse. The `accord` command's build
 * also bundles it with those packages into dist/gherkin-lib.js, which the
 * bundled command loads instead: one file, not the ~60 modules of the two
 * packages and class-transformer (about 17 ms of a cold start).
 */
export { AstBuilder, dialects, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
export { IdGenerator } from '@cucumber/messages';
