// The settings module's public surface: other modules import from '../settings' (this file) only.
export { getSettingValue } from './settings.service';
export { readTypedNumber, typedNumberReader, type TypedNumber } from './typed-numbers';
