import type { ConnectionRow } from '../driver';
import { openOrNull, type SecretBox } from '../../platform/secrets';

// The Cloud API credentials as the provider needs them; the row keeps them sealed. One sealed
// under another ENCRYPTION_KEY reads as missing: the admin enters it again.
export const withOpenCloudSecrets = <
  T extends Pick<ConnectionRow, 'cloudAccessToken' | 'cloudAppSecret'>,
>(
  secrets: Pick<SecretBox, 'open'>,
  row: T,
): T => ({
  ...row,
  cloudAccessToken: openOrNull(secrets, row.cloudAccessToken),
  cloudAppSecret: openOrNull(secrets, row.cloudAppSecret),
});
