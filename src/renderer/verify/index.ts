/**
 * Verify at the source (issue 38, part 1: the check). A pure module: the window runs it where the
 * note is shown, and bench/note-check measures it from Node.
 */
export { checkSection, countLabel, flagName, type CheckFlag, type CheckKind, type SaidLine } from './check';
export { checkNote, linesToCheck, totalToCheck } from './note';
export { checkKeys } from './check-keys';
