import { en, type Strings } from './en';

/** Active strings. English only for now; a translation is another object of type Strings. */
export const s: Strings = en;
