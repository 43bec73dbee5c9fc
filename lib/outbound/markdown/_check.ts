/**
 * Option checks shared by the chunkers.
 * @module
 */

/** Returns `value` when it is an integer ≥ 1; throws a `RangeError` naming `name` otherwise. */
export function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`Expected ${name} to be an integer greater than 0 but found ${value}`);
  }
  return value;
}
