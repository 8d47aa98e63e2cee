import { AppError } from '../../errors/app-error.js';

/** A theme package that breaks a rule: 400 invalid_theme_package with the reason. */
export function invalidPackage(reason: string): AppError {
  return new AppError('invalid_theme_package', `invalid theme package: ${reason}`);
}
