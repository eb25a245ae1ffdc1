// Types for `accord-contracts/jest-matchers`: importing the package's types declares the matchers on Jest's `expect`.
import type {} from '../dist/index';
