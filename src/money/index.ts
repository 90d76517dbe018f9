export { parseUnitsStrict, InvalidDecimalError } from './parse-units-strict';
export { formatCanonical } from './format-canonical';
